#include <jetperf/stats/gpu_layer_energy.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

namespace jetperf::stats {

std::vector<layer_span> spans_of_kernels(const std::vector<op_kernels>& run) {
  std::vector<layer_span> out;
  for (const auto& o : run) {
    if (o.kernels.empty()) continue;
    layer_span s{o.op, o.kernels.front().first, o.kernels.front().second};
    for (const auto& k : o.kernels) s.start_ns = std::min(s.start_ns, k.first), s.end_ns = std::max(s.end_ns, k.second);
    out.push_back(s);
  }
  std::sort(out.begin(), out.end(), [](const layer_span& a, const layer_span& b) { return a.start_ns < b.start_ns; });
  return out;
}

namespace {

// The counter's updates as (time, joules): on its fitted clock where its changes follow one, else
// each new value halfway between the poll before it and the poll that saw it (off by at most
// half a poll, a few millijoules at a GPU's power).
std::vector<std::pair<std::int64_t, double>> counter_updates(const std::vector<std::pair<std::int64_t, double>>& polls,
                                                             bool& fitted) {
  const auto fit = fit_sensor_updates(polls, 0);
  fitted = fit.unusable.empty() && fit.readings.size() >= 2;
  std::vector<std::pair<std::int64_t, double>> out;
  if (fitted) {
    for (const auto& r : fit.readings) out.emplace_back(r.end_ns, r.watts);
    return out;
  }
  for (std::size_t i = 1; i < polls.size(); ++i)
    if (polls[i].second != polls[i - 1].second)
      out.emplace_back(polls[i - 1].first + (polls[i].first - polls[i - 1].first) / 2, polls[i].second);
  return out;
}

}  // namespace

std::optional<counter_energy> counter_energy_within(const std::vector<std::pair<std::int64_t, double>>& polls,
                                                    std::int64_t from_ns, std::int64_t to_ns) {
  if (polls.size() < 2) return std::nullopt;
  counter_energy out;
  const auto updates = counter_updates(polls, out.clock_fitted);
  const auto a = std::find_if(updates.begin(), updates.end(), [&](const auto& u) { return u.first >= from_ns; });
  const auto b = std::find_if(updates.rbegin(), updates.rend(), [&](const auto& u) { return u.first <= to_ns; });
  if (a == updates.end() || b == updates.rend() || !(b->first > a->first)) return std::nullopt;
  out.from_ns = a->first;
  out.to_ns = b->first;
  out.joules = b->second - a->second;
  return out;
}

gpu_layer_energy estimate_gpu_layer_energy(const std::vector<std::vector<op_kernels>>& runs, const nvml_polls& polls,
                                           const gpu_energy_options& o) {
  gpu_layer_energy out;
  std::vector<std::vector<layer_span>> spans;
  for (const auto& r : runs) {
    auto s = spans_of_kernels(r);
    if (!s.empty()) spans.push_back(std::move(s));
  }
  if (spans.empty()) {
    out.unresolvable = "no kernel ran";
    return out;
  }
  out.power_fit = fit_sensor_updates(polls.power_w, o.nominal_period_s);
  if (!out.power_fit.unusable.empty()) {
    out.unresolvable = out.power_fit.unusable;
    return out;
  }
  const double window_s = o.averaging_window_s > 0 ? o.averaging_window_s : out.power_fit.period_s;
  layer_estimate_options eo{static_cast<std::int64_t>(window_s * 1e9), o.idle_w, o.target_rel};
  eo.min_part_ns = static_cast<std::int64_t>(o.min_part_s * 1e9);
  eo.between_runs_column = o.between_runs_column;
  layer_power_estimator est(o.layer_count, eo, o.layer_of_part);
  for (const auto& s : spans) est.add_run(s);
  // Readings up to those whose window holds the last run's end: the GPU's rest after the runs is
  // not the time between them (it falls to idle), and is not modelled.
  std::vector<power_reading> readings;
  const auto last_ns = spans.back().back().end_ns + eo.window_ns;
  for (const auto& r : out.power_fit.readings)
    if (r.end_ns <= last_ns) readings.push_back(r);
  est.set_readings(readings);
  auto& c = out.counter;
  if (const auto e = counter_energy_within(polls.energy_j, spans.front().front().start_ns, spans.back().back().end_ns)) {
    c.available = true;
    c.clock_fitted = e->clock_fitted;
    c.from_ns = e->from_ns;
    c.to_ns = e->to_ns;
    c.counter_j = e->joules;
    est.set_exact_energy(c.from_ns, c.to_ns, c.counter_j);
  }
  out.estimate = est.solve();
  widen_for_placement(est, readings, placement_uncertainty_ns(out.power_fit, polls.power_w), out.estimate);
  out.unresolvable = out.estimate.unresolvable;
  if (c.available) {
    std::tie(c.layers_j, c.between_runs_j) = est.energy_within(c.from_ns, c.to_ns, out.estimate);
    c.sum_rel_error = c.counter_j > 0 ? (c.layers_j + c.between_runs_j - c.counter_j) / c.counter_j : 0.0;
    c.unconstrained_gap_j = -out.estimate.exact_energy_gap_j;
  }
  return out;
}

}  // namespace jetperf::stats
