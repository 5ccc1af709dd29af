#include <jetperf/kinds/sensor/sensor_columns.hpp>

namespace jetperf::kinds {

using namespace sensor;

namespace {
constexpr auto param = column_role::parameter;
constexpr auto metric = column_role::metric;
}  // namespace

const column_table& sensor_columns() {
  static const column_table table{
      {
          declare(cols::channel, param, "", "the power channel", true),
          // No main column: a channel whose updates or steps cannot be fitted is a finding of the
          // card (its row says why), not a failed measurement.
          declare(cols::update_period_ms, metric, "ms", "how often its reading changes, fitted to a regular clock", true),
          declare(cols::window_ms, metric, "ms", "the stretch of time each reading averages (from the load's steps)", true),
          declare(cols::delay_ms, metric, "ms", "from a window's end to its reading being read", false),
          declare(cols::lag_ms, metric, "ms", "from a load step to the reading showing half of it: delay + window / 2",
                  true),
          declare(cols::transitions, metric, "", "readings caught part-way through a step, which window and lag rest on",
                  false),
          declare(cols::updates, metric, "", "updates placed in the card's window", false),
          declare(cols::resolution_mw, metric, "mW", "the smallest step between two values read", true),
          declare(cols::repeat_read_fraction, metric, "",
                  "of two reads with no update between them, the fraction that read the same value", false),
          declare(cols::cached, metric, "", "reads between updates return the last value (repeat_read_fraction >= 0.9)",
                  true),
          declare(cols::unusable, metric, "", "why the period or the step response could not be fitted (null: both were)",
                  false),
          declare(cols::read_p50_us, metric, "us", "median time of one sysfs read of a power file (the first rail's, timed on each of the sampler's reads)", true),
          declare(cols::read_p99_us, metric, "us", "99th percentile of one sysfs read of a power file", false),
          declare(cols::reads, metric, "", "reads the latency figures rest on", false),
          declare(cols::averaging, metric, "",
                  "the driver's averaging per chip, \"<dir>: samples=N update_interval_ms=M\" (null: the driver exposes none)",
                  false),
          declare(cols::averaging_samples, metric, "", "the first chip's averaging count (null: none exposed)", false),
          declare(cols::load, param, "", "what the square-wave load ran on", false),
          declare(cols::half_period_s, param, "s", "length of each busy and idle half", false),
          declare(cols::edges, metric, "", "load steps made", false),
          declare(cols::card_s, metric, "s", "how long the card took, settings to analysis", false),
      },
      false,
      "channels"};
  return table;
}

}  // namespace jetperf::kinds
