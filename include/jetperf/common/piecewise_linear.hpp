#pragma once
// A sampled signal's mean over an interval of the timeline that may be shorter than the sampling
// period (a marked phase, an op, a kernel): the samples are joined by straight lines and the line
// is integrated over exactly [from, to], so an interval between two samples still gets the value
// interpolated there rather than nothing. In common because both the measurement (measure) and
// the pure trace library (traces, which the client links) integrate power this way.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace jetperf {

using time_series = std::vector<std::pair<std::int64_t, double>>;  ///< (t_ns, value), by time

/// Mean of the piecewise-linear series over [from_ns, to_ns]: held flat before its first and
/// after its last point. nullopt for an empty series; the value at `from_ns` when from == to.
std::optional<double> interval_mean(const time_series& series, std::int64_t from_ns, std::int64_t to_ns);

/// The series' value at `t_ns` (linear between its neighbours, flat beyond its ends); the
/// series must not be empty.
double value_at(const time_series& series, std::int64_t t_ns);

/// How many points of `series` lie inside [from_ns, to_ns].
std::size_t points_within(const time_series& series, std::int64_t from_ns, std::int64_t to_ns);

}  // namespace jetperf
