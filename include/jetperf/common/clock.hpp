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
/// CLOCK_REALTIME and CLOCK_MONOTONIC read back to back: what maps a wall-clock time (a Kineto
/// trace's epoch) onto the monotonic timeline. `read_ns` is how long the reading took, a bound
/// on the error of the difference.
struct clock_pair {
  std::int64_t monotonic_ns = 0;
  std::int64_t realtime_ns = 0;
  std::int64_t read_ns = 0;
  std::int64_t realtime_minus_monotonic_ns() const { return realtime_ns - monotonic_ns; }
};
/// Reads monotonic, realtime, monotonic and keeps the realtime against the monotonic midpoint.
clock_pair read_clock_pair() noexcept;
/// RFC 3339 UTC text with millisecond precision, e.g. 2026-11-21T20:00:00.123Z.
std::string format_wall_time(std::int64_t wall_ns);

}  // namespace jetperf
