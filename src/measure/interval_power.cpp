#include <jetperf/measure/interval_power.hpp>

#include <algorithm>

namespace jetperf::measure {

std::map<int, time_series> series_by_channel(const std::vector<telemetry::sample>& samples) {
  std::map<int, time_series> out;
  for (const auto& s : samples) out[s.channel].emplace_back(s.t_ns, s.value);
  for (auto& kv : out)
    std::stable_sort(kv.second.begin(), kv.second.end(),
                     [](const std::pair<std::int64_t, double>& a, const std::pair<std::int64_t, double>& b) {
                       return a.first < b.first;
                     });
  return out;
}

}  // namespace jetperf::measure
