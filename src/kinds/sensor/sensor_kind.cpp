#include <jetperf/kinds/sensor/sensor_kind.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include <jetperf/common/clock.hpp>
#include <jetperf/jobs/kind.hpp>
#include <jetperf/kinds/sensor/sensor_columns.hpp>
#include <jetperf/measure/physical_bounds.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/measure/row_bounds.hpp>
#include <jetperf/stats/sensor_card.hpp>
#include <jetperf/measure/square_wave_load.hpp>
#include <jetperf/workloads/gpu_loads.hpp>

namespace jetperf::kinds {

using namespace sensor;

namespace {

// A driver that hands back its last conversion repeats it on (nearly) every read between updates.
constexpr double k_cached_fraction = 0.9;
// Each call of the GPU's busy half keeps it busy this long: the falling edge is noted when the
// last call returns (at most this late, at its true time), and the launch gaps between calls
// (tens of microseconds) are a few percent of it.
constexpr double k_gpu_step_s = 0.002;

// Every clock at its highest value in the power mode in effect for the card: a DVFS governor
// following the load would add its own ramp to each step, and the card would measure the
// governor, not the sensor; above the mode's cap the board would not run it.
platform::board_setting top_clocks(const platform::board_offer& offer) {
  platform::board_setting s;
  const auto caps = offer.caps_in();
  const auto top = [&](const std::string& setting) -> std::optional<std::int64_t> {
    const auto allowed = platform::under_cap(offer.clock_values(setting), caps.of(setting));
    if (allowed.empty()) return std::nullopt;
    return *std::max_element(allowed.begin(), allowed.end());
  };
  s.cpu_freq_khz = top("cpu_freq_khz");
  s.gpu_freq_hz = top("gpu_freq_hz");
  s.emc_freq_hz = top("emc_freq_hz");
  return s;
}

// The sampler reads the power sensors as fast as it may while the card runs, and at its
// configured period again after: a period is placed from polls several times faster than it.
class fast_polls {
 public:
  explicit fast_polls(telemetry::sample_source* source) : source_(source) {
    if (source_) source_->set_job_tick_period_s(source_->fastest_tick_period_s());
  }
  ~fast_polls() {
    if (source_) source_->set_job_tick_period_s(0);
  }
  fast_polls(const fast_polls&) = delete;
  fast_polls& operator=(const fast_polls&) = delete;

 private:
  telemetry::sample_source* source_;
};

cell ms_or_null(double seconds, bool known) { return known ? cell(seconds * 1e3) : cell(nullptr); }

record channel_row(const std::string& name, const std::string& unit, const stats::channel_card& c) {
  row out;
  out.set(cols::channel, name);
  out.put(cols::update_period_ms.name, ms_or_null(c.period_s, c.period_s > 0));
  out.set(cols::updates, static_cast<std::int64_t>(c.updates));
  const bool step = c.step.unusable.empty();
  out.put(cols::window_ms.name, ms_or_null(c.step.window_s, step));
  out.put(cols::delay_ms.name, ms_or_null(c.step.delay_s, step));
  out.put(cols::lag_ms.name, ms_or_null(c.step.lag_s, step));
  out.set(cols::transitions, static_cast<std::int64_t>(c.step.transitions));
  // Power channels are in W; the card says mW.
  const double to_mw = unit == "W" ? 1e3 : 1;
  out.put(cols::resolution_mw.name, c.resolution ? cell(*c.resolution * to_mw) : cell(nullptr));
  out.put(cols::repeat_read_fraction.name, c.repeat_fraction ? cell(*c.repeat_fraction) : cell(nullptr));
  out.put(cols::cached.name, c.repeat_fraction ? cell(*c.repeat_fraction >= k_cached_fraction) : cell(nullptr));
  const std::string why = !c.period_unusable.empty() ? c.period_unusable : c.step.unusable;
  out.put(cols::unusable.name, why.empty() ? cell(nullptr) : cell(why));
  return out.cells();
}

// What the bounds read of a channel's card: its chip (the folder of its files), its period, and
// its window and delay where the step response was fitted.
measure::channel_timing timing_of(const stats::channel_card& c, const std::string& source) {
  measure::channel_timing t;
  t.chip = measure::sensor_chip_of(source);
  t.period_s = c.period_s;
  if (c.step.unusable.empty()) {
    t.window_s = c.step.window_s;
    t.delay_s = c.step.delay_s;
  }
  return t;
}

// Each power channel's polls in the card's window, by channel index.
std::map<int, std::vector<std::pair<std::int64_t, double>>> power_polls(const telemetry::sample_source& source,
                                                                       std::int64_t from_ns, std::int64_t to_ns) {
  const auto channels = source.channels();
  std::map<int, std::vector<std::pair<std::int64_t, double>>> out;
  for (std::size_t i = 0; i < channels.size(); ++i)
    if (channels[i].kind == telemetry::channel_kind::power) out[static_cast<int>(i)];
  for (const auto& s : source.window(from_ns, to_ns)) {
    auto it = out.find(s.channel);
    if (it != out.end()) it->second.emplace_back(s.t_ns, s.value);
  }
  return out;
}

class sensor_kind final : public jobs::kind<sensor_spec, sensor_point> {
 public:
  std::string kind() const { return "sensor"; }
  std::string description() const {
    return "The board's sensor card: per power channel, its update period, averaging window, lag, resolution, "
           "read latency and caching, measured with a square-wave load of its own on the CPU (and the GPU).";
  }
  const std::vector<spec_field>& spec_fields() const { return sensor_spec_fields(); }
  const column_table& columns() const { return sensor_columns(); }

  std::vector<sensor_point> expand(const sensor_spec& spec) const { return kinds::expand(spec); }
  record params_of(const sensor_point& p) const { return {{cols::load.name, p.load}}; }
  sensor_point point_of(const record& p) const {
    const auto* load = p.find(cols::load.name);
    return {load && load->is_string() ? load->as_string() : std::string("cpu")};
  }
  std::vector<double> estimate_points_s(const sensor_spec& spec, const std::vector<sensor_point>& points,
                                        const measure::estimate_context&) const {
    return std::vector<double>(points.size(), spec.wave_s());
  }

  measure::point_result run_point(measure::point_context& ctx, const sensor_spec& spec, const sensor_point& p) {
    const auto began = monotonic_ns();
    measure::square_wave_plan plan;
    plan.half_period_s = spec.half_period_s;
    plan.edges = static_cast<int>(2 * spec.cycles);
    plan.threads = static_cast<int>(spec.threads);
    std::unique_ptr<workloads::gpu_load> gpu;
    if (p.load == "gpu") {
      std::string why;
      gpu = workloads::make_gpu_load(&why);
      if (!gpu) return measure::skipped_point(why, row(params_of(p)));
      plan.device_step = [&gpu](std::string* step_why) { return gpu->busy_for(k_gpu_step_s, step_why); };
    }
    if (ctx.board) measure::apply_point_settings(ctx, top_clocks(ctx.board->offered()));
    measure::point_result r;
    std::vector<stats::load_edge> edges;
    {
      fast_polls polls(ctx.telemetry);
      r.t_start_ns = monotonic_ns();
      edges = measure::run_square_wave(plan, [&ctx] { return ctx.cancelled(); });
      r.t_end_ns = monotonic_ns();
    }
    ctx.record("runs", "square wave", r.t_start_ns, r.t_end_ns, {{"edges", static_cast<std::int64_t>(edges.size())}});
    put_point(r.metrics, ctx, spec, p, edges.size());
    if (ctx.telemetry) put_channels(r, *ctx.telemetry, edges, spec.half_period_s);
    r.metrics.set(cols::card_s, static_cast<double>(monotonic_ns() - began) * 1e-9);
    return r;
  }

 private:
  static void put_point(row& m, const measure::point_context& ctx, const sensor_spec& spec, const sensor_point& p,
                        std::size_t edges) {
    m.set(cols::load, p.load);
    m.set(cols::half_period_s, spec.half_period_s);
    m.set(cols::edges, static_cast<std::int64_t>(edges));
    const auto chips = ctx.board ? ctx.board->sensor_averaging() : std::vector<platform::sensor_chip_averaging>{};
    m.put(cols::averaging.name, chips.empty() ? cell(nullptr) : cell(platform::describe_sensor_averaging(chips)));
    m.put(cols::averaging_samples.name, chips.empty() ? cell(nullptr) : cell(chips.front().samples));
    const auto latency = stats::summarize_read_latency(ctx.telemetry ? ctx.telemetry->power_read_durations_s()
                                                                       : std::vector<double>{});
    const bool timed = latency.reads > 0;
    m.put(cols::read_p50_us.name, timed ? cell(latency.median_s * 1e6) : cell(nullptr));
    m.put(cols::read_p99_us.name, timed ? cell(latency.p99_s * 1e6) : cell(nullptr));
    m.set(cols::reads, static_cast<std::int64_t>(latency.reads));
  }

  // Each channel's row, its figures checked against what a sensor can do (physical_bounds.hpp):
  // one that broke a bound says which in its implausible column, and its status says so.
  static void put_channels(measure::point_result& r, const telemetry::sample_source& source,
                           const std::vector<stats::load_edge>& edges, double half_period_s) {
    const auto channels = source.channels();
    std::vector<const telemetry::channel_info*> infos;
    std::vector<stats::channel_card> cards;
    for (const auto& [index, polls] : power_polls(source, r.t_start_ns, r.t_end_ns)) {
      infos.push_back(&channels[static_cast<std::size_t>(index)]);
      cards.push_back(stats::card_of_channel(polls, edges, half_period_s, source.update_period_s()));
    }
    std::vector<measure::channel_timing> timings;
    for (std::size_t i = 0; i < cards.size(); ++i) timings.push_back(timing_of(cards[i], infos[i]->source));
    const auto broken = measure::check_sensor_channels(timings);
    cell_list rows;
    for (std::size_t i = 0; i < cards.size(); ++i) {
      row channel(channel_row(infos[i]->name, infos[i]->unit, cards[i]));
      measure::put_implausible(channel, broken[i]);
      rows.push_back(channel.cells());
    }
    r.metrics.set(cols::channels, std::move(rows));
  }
};

}  // namespace

std::unique_ptr<jobs::workload> make_sensor_kind() { return jobs::make_workload(sensor_kind{}); }

}  // namespace jetperf::kinds
