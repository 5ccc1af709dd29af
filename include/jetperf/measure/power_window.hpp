#pragma once
// Power over a measurement window: trimming, per-channel means, energy integrals, precision.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::measure {

/// One channel over a window.
struct channel_summary {
  std::string name;
  std::string unit;
  std::size_t samples = 0;
  double mean = 0;
  double min = 0;
  double max = 0;
  double energy_j = 0;  ///< trapezoidal integral over the samples' span (power channels only)
  double rse = 0;       ///< batch-means RSE of the mean (inf when too few samples)
};

/// Every channel seen in a window, by channel index, and the total-power view.
struct power_summary {
  std::map<int, channel_summary> channels;
  std::optional<double> total_power_w;     ///< mean of the total-power channel
  std::optional<double> total_energy_j;    ///< its trapezoidal integral
  double total_rse = 0;                    ///< batch-means RSE of total_power_w
  std::size_t total_samples = 0;
  std::optional<double> temp_max_c;        ///< hottest temperature sample in the window
};

/// Samples with from_ns + boundary <= t_ns <= to_ns - boundary: the edges of a window mix in the
/// transition from the previous state (sensor averaging lags the load), so they are cut off.
/// An empty result when the boundary consumes the whole window.
std::vector<telemetry::sample> trim_window(const std::vector<telemetry::sample>& samples, std::int64_t from_ns,
                                           std::int64_t to_ns, double boundary_s);

/// Trapezoidal integral of (t_ns, value) points ordered by time, in value x seconds;
/// 0 with fewer than 2 points.
double trapezoid_integral(const std::vector<std::pair<std::int64_t, double>>& points);

/// Per-channel statistics of `samples` (already trimmed); `total_channel` selects total power.
power_summary summarize_window(const std::vector<telemetry::channel_info>& channels,
                               const std::vector<telemetry::sample>& samples, std::optional<int> total_channel,
                               std::size_t rse_batches = 10);

/// A measurement window's power as read from its source: [from_ns, to_ns] trimmed by
/// `boundary_s` at each end and summarised, with the kept samples, the trimmed window's length
/// and how much of it (its end) the source still held when read.
struct window_power {
  power_summary summary;
  std::vector<telemetry::sample> samples;
  double window_s = 0;
  double covered_s = 0;
};
window_power read_window_power(const telemetry::sample_source& source, std::int64_t from_ns, std::int64_t to_ns,
                               double boundary_s, std::size_t rse_batches = 10);

}  // namespace jetperf::measure
