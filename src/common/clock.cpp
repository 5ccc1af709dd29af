#include <jetperf/common/clock.hpp>

#include <cstdio>
#include <ctime>

namespace jetperf {

namespace {
std::int64_t read_clock(clockid_t id) noexcept {
  timespec ts{};
  ::clock_gettime(id, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}
}  // namespace

std::int64_t monotonic_ns() noexcept { return read_clock(CLOCK_MONOTONIC); }
std::int64_t wall_ns() noexcept { return read_clock(CLOCK_REALTIME); }

clock_pair read_clock_pair() noexcept {
  const auto before = monotonic_ns();
  const auto real = wall_ns();
  const auto after = monotonic_ns();
  return {before + (after - before) / 2, real, after - before};
}

std::string format_wall_time(std::int64_t ns) {
  const std::time_t secs = static_cast<std::time_t>(ns / 1000000000LL);
  const int millis = static_cast<int>((ns / 1000000LL) % 1000);
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, millis);
  return out;
}

}  // namespace jetperf
