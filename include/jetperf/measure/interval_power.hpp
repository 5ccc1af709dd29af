#pragma once
// A channel's mean over an interval of the timeline that may be shorter than the sensor's update
// period (a marked phase): the integration itself is jetperf::interval_mean
// (common/piecewise_linear.hpp, shared with the trace library); this adds the split of a
// sampler's samples into one series per channel.
#include <map>
#include <vector>

#include <jetperf/common/piecewise_linear.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::measure {

using jetperf::interval_mean;
using jetperf::points_within;
using jetperf::time_series;

/// The samples of `samples` split by channel, each ordered by time.
std::map<int, time_series> series_by_channel(const std::vector<telemetry::sample>& samples);

}  // namespace jetperf::measure
