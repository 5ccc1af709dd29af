#include <jetperf/kinds/command/phases.hpp>

#include <algorithm>

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
            [](const measure::phase_interval& a, const measure::phase_interval& b) { return a.t_start_ns < b.t_start_ns; });
  return out;
}

record phases_record(const measure::phases_result& phases) {
  record out;
  for (const auto& kv : phases.phases) {
    const auto& f = kv.second;
    out.set(kv.first, record{{"count", f.count},
                             {"time_s", f.time_s},
                             {"power_w", f.power_w},
                             {"energy_j", f.energy_j},
                             {"dynamic_energy_j", f.dynamic_energy_j},
                             {"rail_power_w", f.rail_power_w},
                             {"rail_energy_j", f.rail_energy_j},
                             {"samples", f.samples},
                             {"unclosed", f.unclosed}});
  }
  return out;
}

}  // namespace jetperf::kinds
