#include <jetperf/traces/kernel_links.hpp>

#include <unordered_map>

namespace jetperf::traces {

kernel_links link_kernels(const trace& t) {
  kernel_links out;
  std::unordered_map<std::int64_t, std::uint32_t> launch_of;
  for (std::uint32_t i = 0; i < t.events.size(); ++i) {
    const trace_event& e = t.events[i];
    if (is_runtime(e.category) && e.correlation >= 0) launch_of.emplace(e.correlation, i);
  }
  for (std::uint32_t i = 0; i < t.events.size(); ++i) {
    const trace_event& e = t.events[i];
    if (!is_device(e.category)) continue;
    ++out.device_events;
    const auto it = e.correlation >= 0 ? launch_of.find(e.correlation) : launch_of.end();
    if (it == launch_of.end()) {
      ++out.unmatched;
      continue;
    }
    out.links.push_back({i, it->second});
  }
  return out;
}

}  // namespace jetperf::traces
