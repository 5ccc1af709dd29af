#include <jetperf/measure/throttle.hpp>

#include <algorithm>

namespace jetperf::measure {

throttle_report check_throttle(const std::vector<telemetry::sample>& samples, int clock_channel, double requested,
                               double tolerance) {
  throttle_report r;
  if (requested <= 0) return r;
  const double floor = requested * (1 - tolerance);
  for (const auto& s : samples) {
    if (s.channel != clock_channel) continue;
    ++r.samples;
    r.min_ratio = std::min(r.min_ratio, s.value / requested);
    if (s.value < floor) ++r.below;
  }
  r.throttled = r.below > 0;
  return r;
}

}  // namespace jetperf::measure
