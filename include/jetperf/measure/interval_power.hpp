#pragma once
// A channel's mean over an interval of the timeline that may be shorter than the sensor's update
// period (a marked phase, later an op or a kernel): the samples are joined by straight lines and
// the line is integrated over exactly [from, to], so a phase between two samples still gets the
// value interpolated there rather than nothing.
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::measure {

using time_series = std::vector<std::pair<std::int64_t, double>>;  ///< (t_ns, value), by time

/// The samples of `samples` split by channel, each ordered by time.
std::map<int, time_series> series_by_channel(const std::vector<telemetry::sample>& samples);

/// Mean of the piecewise-linear series over [from_ns, to_ns]: held flat before its first and
/// after its last point. nullopt for an empty series; the value at `from_ns` when from == to.
std::optional<double> interval_mean(const time_series& series, std::int64_t from_ns, std::int64_t to_ns);

/// How many points of `series` lie inside [from_ns, to_ns].
std::size_t points_within(const time_series& series, std::int64_t from_ns, std::int64_t to_ns);

}  // namespace jetperf::measure
