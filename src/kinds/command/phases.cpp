#include <jetperf/kinds/command/phases.hpp>

#include <algorithm>

#include <jetperf/measure/interval_power.hpp>

namespace jetperf::kinds {

paired_markers pair_markers(const std::vector<marker>& markers, std::int64_t run_end_ns) {
  paired_markers out;
  std::map<std::string, std::vector<std::int64_t>> open;
  for (const auto& m : markers) {
    switch (m.what) {
      case marker::type::begin: open[m.name].push_back(m.t_ns); break;
      case marker::type::end: {
        auto& stack = open[m.name];
        if (stack.empty()) {
          out.problems.push_back("end without begin: " + m.name);
          break;
        }
        out.intervals.push_back({m.name, stack.back(), m.t_ns, true});
        stack.pop_back();
        break;
      }
      case marker::type::mark: ++out.marks[m.name]; break;
    }
  }
  for (const auto& kv : open) {
    for (auto t : kv.second) {
      out.intervals.push_back({kv.first, t, std::max(t, run_end_ns), false});
      out.problems.push_back("begin without end: " + kv.first + " (closed at the end of the run)");
    }
  }
  std::sort(out.intervals.begin(), out.intervals.end(),
            [](const phase_interval& a, const phase_interval& b) { return a.t_start_ns < b.t_start_ns; });
  return out;
}

std::map<std::string, phase_figures> phase_energy(const paired_markers& pairs,
                                                  const std::vector<telemetry::channel_info>& channels,
                                                  const std::vector<telemetry::sample>& samples,
                                                  std::optional<int> total_channel, std::optional<double> idle_w) {
  const auto series = measure::series_by_channel(samples);
  const measure::time_series* total = nullptr;
  if (total_channel) {
    auto it = series.find(*total_channel);
    if (it != series.end()) total = &it->second;
  }
  std::map<std::string, phase_figures> out;
  for (const auto& iv : pairs.intervals) {
    auto& f = out[iv.name];
    ++f.count;
    if (!iv.closed) ++f.unclosed;
    const double dt = static_cast<double>(iv.t_end_ns - iv.t_start_ns) * 1e-9;
    f.time_s += dt;
    if (total) {
      if (auto mean = measure::interval_mean(*total, iv.t_start_ns, iv.t_end_ns)) {
        f.energy_j = f.energy_j.value_or(0) + *mean * dt;
        if (idle_w) f.dynamic_energy_j = f.dynamic_energy_j.value_or(0) + (*mean - *idle_w) * dt;
      }
      f.samples += measure::points_within(*total, iv.t_start_ns, iv.t_end_ns);
    }
    for (const auto& kv : series) {
      const auto& c = channels.at(static_cast<std::size_t>(kv.first));
      if (c.name.rfind("rail.", 0) != 0) continue;
      if (auto mean = measure::interval_mean(kv.second, iv.t_start_ns, iv.t_end_ns))
        f.rail_energy_j[c.name.substr(5)] += *mean * dt;
    }
  }
  for (auto& kv : out) {
    auto& f = kv.second;
    if (f.time_s <= 0) continue;
    if (f.energy_j) f.power_w = *f.energy_j / f.time_s;
    for (const auto& r : f.rail_energy_j) f.rail_power_w[r.first] = r.second / f.time_s;
  }
  return out;
}

nlohmann::json phases_json(const std::map<std::string, phase_figures>& phases) {
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
  nlohmann::json out = nlohmann::json::object();
  for (const auto& kv : phases) {
    const auto& f = kv.second;
    out[kv.first] = {{"count", f.count},
                     {"time_s", f.time_s},
                     {"power_w", opt(f.power_w)},
                     {"energy_j", opt(f.energy_j)},
                     {"dynamic_energy_j", opt(f.dynamic_energy_j)},
                     {"rail_power_w", f.rail_power_w},
                     {"rail_energy_j", f.rail_energy_j},
                     {"samples", f.samples},
                     {"unclosed", f.unclosed}};
  }
  return out;
}

}  // namespace jetperf::kinds
