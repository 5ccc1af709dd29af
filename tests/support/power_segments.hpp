#pragma once
// A board's power over time as segments of constant power, idle between them, and what a sensor
// averaging over a window reads of it: the estimator tests' ground truth.
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

namespace jetperf::test {

/// (start ns, end ns, watts), in time order.
using power_segments = std::vector<std::tuple<std::int64_t, std::int64_t, double>>;

struct window_reading {
  double watts = 0;          ///< the mean over the window
  std::int64_t covered = 0;  ///< ns of the window inside some segment
};

/// The mean power over (end_ns - window_ns, end_ns], at `idle_w` outside the segments.
inline window_reading read_window(const power_segments& seg, std::int64_t end_ns, std::int64_t window_ns, double idle_w) {
  double energy = 0;  // W ns
  window_reading out;
  for (const auto& [from, to, w] : seg) {
    const auto o = std::min(to, end_ns) - std::max(from, end_ns - window_ns);
    if (o > 0) energy += static_cast<double>(o) * w, out.covered += o;
  }
  energy += static_cast<double>(window_ns - out.covered) * idle_w;
  out.watts = energy / static_cast<double>(window_ns);
  return out;
}

}  // namespace jetperf::test
