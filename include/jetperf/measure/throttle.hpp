#pragma once
// Throttling: a clock channel reading below the clock that was requested for the point.
#include <cstddef>
#include <vector>

#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::measure {

struct throttle_report {
  bool throttled = false;
  std::size_t samples = 0;        ///< clock samples seen
  std::size_t below = 0;          ///< of which read below requested * (1 - tolerance)
  double min_ratio = 1;           ///< lowest reading / requested
};

/// How far a clock may read from its request and still count as it: absorbs the rounding of
/// clock read-back (devfreq reports the nearest OPP).
inline constexpr double k_clock_tolerance = 0.005;

/// Checks the samples of `clock_channel` against `requested` (same unit as the channel).
throttle_report check_throttle(const std::vector<telemetry::sample>& samples, int clock_channel, double requested,
                               double tolerance = k_clock_tolerance);

}  // namespace jetperf::measure
