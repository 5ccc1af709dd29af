#pragma once
// Every timestamp in jetperf, of samples and workload events alike, is CLOCK_MONOTONIC ns,
// so that any window can be re-cut later; wall-clock time is kept only for display.
#include <cstdint>
#include <string>

namespace jetperf {

/// CLOCK_MONOTONIC in nanoseconds.
std::int64_t monotonic_ns() noexcept;
/// CLOCK_REALTIME in nanoseconds since the Unix epoch.
std::int64_t wall_ns() noexcept;
/// RFC 3339 UTC text with millisecond precision, e.g. 2026-11-21T20:00:00.123Z.
std::string format_wall_time(std::int64_t wall_ns);

}  // namespace jetperf
