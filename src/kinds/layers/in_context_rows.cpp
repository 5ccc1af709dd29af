#include <jetperf/kinds/layers/in_context_rows.hpp>

#include <cmath>
#include <optional>

#include <jetperf/kinds/layers/layers_columns.hpp>
#include <jetperf/measure/modelled_truth.hpp>
#include <jetperf/measure/point_columns.hpp>

namespace jetperf::kinds {

using namespace layers;

namespace {

// NaN and infinities mean "not known": stored as null.
cell finite_or_null(double v) { return std::isfinite(v) ? cell(v) : cell(); }

// A layer's or a group's power and energy with their intervals.
template <typename Figures>
void put_figures(row& item, const Figures& f) {
  item.set(measure::cols::power_w, f.power_w);
  item.set(cols::power_ci95_w, f.power_ci95_w);
  item.set(measure::cols::energy_j, f.energy_j);
  item.set(cols::energy_ci95_j, f.energy_ci95_j);
  item.set(measure::cols::dynamic_power_w, f.dynamic_power_w);
  item.set(measure::cols::dynamic_energy_j, f.dynamic_energy_j);
  item.set(cols::layer_readings, f.readings);
  if (f.edge_limited) item.set(measure::cols::flags, std::vector<std::string>{"edge_limited"});
}

}  // namespace

row in_context_layer_row(const measure::in_context_layer& l) {
  const auto& lat = l.latency;
  // A layer that ran nothing has no latency figures: null, not 0.
  const auto timed = [&lat](double v) { return lat.count ? std::optional<double>(v) : std::nullopt; };
  row item;
  item.set(cols::layer_index, l.index);
  item.set(cols::layer_name, l.name);
  item.set(cols::layer_type, l.type);
  item.set(cols::latency_count, lat.count);
  item.set(cols::latency_mean_s, timed(lat.mean_s));
  item.set(cols::latency_median_s, timed(lat.median_s));
  item.set(cols::latency_std_s, timed(lat.std_s));
  item.set(cols::latency_min_s, timed(lat.min_s));
  item.set(cols::latency_max_s, timed(lat.max_s));
  item.set(cols::layer_resolution, to_string(l.resolution));
  if (l.resolution == measure::layer_resolution::merged) item.set(cols::merged_with, l.merged_with);
  if (l.has_figure()) put_figures(item, l);
  if (l.sim) measure::put_modelled(item, l.sim);
  return item;
}

row in_context_group_row(const measure::in_context_group& g) {
  row item;
  item.set(cols::layer_index, std::optional<std::int64_t>());
  item.set(cols::layer_name, g.name);
  item.set(cols::layer_type, std::string("group"));
  item.set(cols::latency_mean_s, g.latency_mean_s);
  item.set(cols::layer_resolution, std::string("group"));
  item.set(cols::merged_with, g.members_text);
  put_figures(item, g);
  if (g.sim) measure::put_modelled(item, g.sim);
  return item;
}

record in_context_estimator_record(const measure::in_context_diagnostics& e) {
  const auto& s = e.sensor;
  const auto& b = e.between_runs;
  record out{{"unresolvable", e.unresolvable.empty() ? cell() : cell(e.unresolvable)},
          {"runs", e.runs},
          {"readings", e.readings},
          {"units", e.units},
          {"columns", e.columns},
          {"merges", e.merges},
          {"condition_number", finite_or_null(e.condition_number)},
          {"residual_rms_w", e.residual_rms_w},
          {"phase_lock", e.phase_lock},
          {"jitter", e.jitter},
          {"targeted_runs", e.targeted_runs},
          {"checks", e.checks},
          {"failed_refits", e.failed_refits},
          {"attributed_energy_j", e.attributed_energy_j},
          {"attributed_energy_ci95_j", finite_or_null(e.attributed_energy_ci95_j)},
          {"target_half_width", e.target_half_width},
          {"blocks", e.blocks},
          {"placement_shift_s", e.placement_shift_s},
          {"window_offset_s", e.window_offset_s},
          {"sensor_retries", static_cast<std::int64_t>(e.sensor_retries)},
          {"sensor_facts", e.facts.to_record()},
          {"sensor", record{{"nominal_period_s", s.nominal_period_s},
                            {"poll_period_s", s.poll_period_s > 0 ? cell(s.poll_period_s) : cell()},
                            {"period_s", s.period_s},
                            {"lateness_median_s", s.lateness_median_s},
                            {"lateness_iqr_s", s.lateness_iqr_s},
                            {"phase_uncertainty_s", s.phase_uncertainty_s},
                            {"changes", s.changes},
                            {"readings", s.readings}}},
          {"between_runs", record{{"pauses", b.pauses},
                                  {"paused_s", b.paused_s},
                                  {"power_w", finite_or_null(b.power_w)},
                                  {"power_ci95_w", finite_or_null(b.power_ci95_w)},
                                  {"readings", b.readings},
                                  {"window_power_w", cell(b.window_power_w)}}}};
  // On a GPU with NVML's energy counter only (docs/protocols/in_context.md, "On a GPU").
  if (const auto& c = e.counter)
    out.set("energy_counter", record{{"from_ns", c->from_ns},
                                     {"to_ns", c->to_ns},
                                     {"clock_fitted", c->clock_fitted},
                                     {"counter_j", c->counter_j},
                                     {"layers_j", c->layers_j},
                                     {"between_runs_j", c->between_runs_j},
                                     {"sum_rel_error", c->sum_rel_error},
                                     {"unconstrained_gap_j", finite_or_null(c->unconstrained_gap_j)}});
  return out;
}

}  // namespace jetperf::kinds
