#include <jetperf/traces/iterations.hpp>

#include <algorithm>
#include <limits>

namespace jetperf::traces {

namespace {

bool is_step(const std::string& name, const std::string& op_name) {
  if (!op_name.empty()) return name == op_name;
  static const std::string k_step = "ProfilerStep#";
  return name.compare(0, k_step.size(), k_step) == 0;
}

}  // namespace

std::vector<iteration> find_iterations(const trace& t, const op_tree& tree, const std::string& op_name) {
  std::int64_t origin = std::numeric_limits<std::int64_t>::max();
  for (const auto& e : t.events) origin = std::min(origin, e.ts_ns);

  std::vector<std::uint32_t> found;
  for (std::uint32_t n = 0; n < tree.nodes.size(); ++n) {
    const trace_event& e = t.events[tree.nodes[n].event];
    if (!is_step(t.name_of(e), op_name)) continue;
    // Outermost only: a step inside a step (a label reused inside itself) is part of the outer one.
    bool nested = false;
    for (std::int32_t p = tree.nodes[n].parent; p >= 0 && !nested; p = tree.nodes[p].parent)
      nested = is_step(t.name_of(t.events[tree.nodes[p].event]), op_name);
    if (!nested) found.push_back(n);
  }
  std::sort(found.begin(), found.end(), [&](std::uint32_t a, std::uint32_t b) {
    return t.events[tree.nodes[a].event].ts_ns < t.events[tree.nodes[b].event].ts_ns;
  });
  std::vector<iteration> out;
  out.reserve(found.size());
  for (std::uint32_t n : found) {
    const trace_event& e = t.events[tree.nodes[n].event];
    out.push_back({t.name_of(e), static_cast<double>(e.ts_ns - origin) / 1000.0, static_cast<double>(e.dur_ns) / 1000.0});
  }
  return out;
}

}  // namespace jetperf::traces
