#pragma once
// A point's averaging count for the power sensors (INA3221 `samples`, platform/sensor_averaging.hpp):
// set before the point measures anything, and put back as it was when the point ends (the job's
// snapshot puts it back after a crash). Fewer samples make each reading cover a shorter stretch
// of time, which is what resolves short layers in context (measure/protocols/in_context.hpp),
// at the cost of noisier readings. A shorter window must also be polled faster to be placed, so
// the scope has the sampler read the power sensors a few times per update for as long (up to the
// daemon's fast_sample_period_ms; the other sensors keep their period).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/platform/board_settings.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::measure {

/// What a spec asks of the sensors' averaging: leave it, a count, or the shortest window the
/// sampler can still place (auto).
struct sensor_samples_request {
  enum class how { as_is, automatic, count };
  how mode = how::as_is;
  std::int64_t count = 0;  ///< with how::count

  /// The spec's form: "as_is", "auto" or an integer count.
  cell to_cell() const;
  /// Parses the spec's form; throws validation_error("spec.sensor_samples") otherwise. Counts
  /// are checked against `offered` (board_offer::sensor_samples: a board with none refuses a
  /// count); null for a stored spec, checked when it was submitted.
  static sensor_samples_request parse(const cell& value, const std::vector<std::int64_t>* offered);
};

/// Polls per update auto leaves the sampler: an update is placed between the last poll that did
/// not see it and the first that did (stats/sensor_updates.hpp), so a window much shorter than
/// a few polls cannot be placed at all.
inline constexpr double k_auto_polls_per_update = 4;

/// The smallest offered count whose update interval (each chip's interval per sample times the
/// count) is at least `min_update_s`; nullopt when the chips say no interval.
std::optional<std::int64_t> auto_sensor_samples(const std::vector<platform::sensor_chip_averaging>& chips,
                                                const std::vector<std::int64_t>& offered, double min_update_s);

class sensor_averaging_scope {
 public:
  /// Sets the count (nothing for as_is, for a board that cannot, or when it is already so),
  /// then waits until every reading is one of the new count (the old and the new interval).
  /// auto shortens the window down to k_auto_polls_per_update polls at the fastest period the
  /// sampler offers (`telemetry`'s; null or 0: unknown, nothing changes) and never lengthens it.
  /// With the count changed, the sampler reads the power sensors k_auto_polls_per_update times
  /// per new update, or as fast as it may when that is faster than it offers, before the count
  /// changes. Throws what board_settings::set_sensor_samples throws (the sampler's period put
  /// back first).
  sensor_averaging_scope(platform::board_settings* board, const sensor_samples_request& request,
                         telemetry::sample_source* telemetry);
  ~sensor_averaging_scope();  ///< puts the chips back as they were (logged, never thrown), then the sampler's period
  sensor_averaging_scope(const sensor_averaging_scope&) = delete;
  sensor_averaging_scope& operator=(const sensor_averaging_scope&) = delete;

  /// Whether this scope changed the count.
  bool changed() const { return changed_; }
  /// The sensors' update interval now, as the chips say (nullopt: they do not say).
  std::optional<double> update_interval_s() const;
  /// CLOCK_MONOTONIC from when every reading is of the count now in effect (0 when unchanged).
  std::int64_t since_ns() const { return since_ns_; }
  /// The chips' averaging count during the scope; nullopt when the board has none to set (or
  /// the request was as_is).
  std::optional<std::int64_t> samples() const;
  /// The sampler's tick period during the scope (s; 0: unknown).
  double tick_period_s() const { return tick_s_; }

 private:
  platform::board_settings* board_;
  telemetry::sample_source* telemetry_;
  bool tick_changed_ = false;
  double tick_s_ = 0;
  std::vector<platform::sensor_chip_averaging> before_, now_;
  bool changed_ = false;
  std::int64_t since_ns_ = 0;
};

}  // namespace jetperf::measure
