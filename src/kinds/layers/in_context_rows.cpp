#include <jetperf/kinds/layers/in_context_rows.hpp>

#include <cmath>

namespace jetperf::kinds {

namespace {

using nlohmann::json;

json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(); }

}  // namespace

json in_context_layer_json(const measure::in_context_layer& l) {
  const auto& lat = l.latency;
  json item = {{"layer_index", l.index}, {"layer_name", l.name}, {"layer_type", l.type}};
  item["latency_count"] = lat.count;
  item["latency_mean_s"] = lat.count ? json(lat.mean_s) : json();
  item["latency_median_s"] = lat.count ? json(lat.median_s) : json();
  item["latency_std_s"] = lat.count ? json(lat.std_s) : json();
  item["latency_min_s"] = lat.count ? json(lat.min_s) : json();
  item["latency_max_s"] = lat.count ? json(lat.max_s) : json();
  item["layer_resolution"] = to_string(l.resolution);
  if (!l.has_figure()) return item;
  item["power_w"] = l.power_w;
  item["power_ci95_w"] = l.power_ci95_w;
  item["energy_j"] = l.energy_j;
  item["energy_ci95_j"] = l.energy_ci95_j;
  item["dynamic_power_w"] = l.dynamic_power_w;
  item["dynamic_energy_j"] = l.dynamic_energy_j;
  item["layer_readings"] = l.readings;
  if (l.edge_limited) item["flags"] = json::array({"edge_limited"});
  if (l.resolution == measure::layer_resolution::merged) item["merged_with"] = l.merged_with;
  return item;
}

json in_context_estimator_json(const measure::in_context_diagnostics& e) {
  const auto& s = e.sensor;
  const auto& b = e.between_runs;
  return {{"unresolvable", e.unresolvable.empty() ? json() : json(e.unresolvable)},
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
          {"sensor",
           {{"nominal_period_s", s.nominal_period_s},
            {"poll_period_s", s.poll_period_s > 0 ? json(s.poll_period_s) : json()},
            {"period_s", s.period_s},
            {"lateness_median_s", s.lateness_median_s},
            {"lateness_iqr_s", s.lateness_iqr_s},
            {"phase_uncertainty_s", s.phase_uncertainty_s},
            {"changes", s.changes},
            {"readings", s.readings}}},
          {"between_runs",
           {{"pauses", b.pauses},
            {"paused_s", b.paused_s},
            {"power_w", finite_or_null(b.power_w)},
            {"power_ci95_w", finite_or_null(b.power_ci95_w)},
            {"readings", b.readings},
            {"window_power_w", b.window_power_w ? json(*b.window_power_w) : json()}}}};
}

}  // namespace jetperf::kinds
