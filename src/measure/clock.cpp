#include <jetperf/measure/clock.hpp>

#include <time.h>

#include <cerrno>

#include <jetperf/common/clock.hpp>

namespace jetperf::measure {

namespace {

class monotonic final : public clock {
 public:
  std::int64_t now_ns() const override { return monotonic_ns(); }
  void sleep_until(std::int64_t t_ns) override {
    const timespec at{static_cast<time_t>(t_ns / 1'000'000'000), static_cast<long>(t_ns % 1'000'000'000)};
    while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, nullptr) == EINTR) {
    }
  }
};

}  // namespace

clock& monotonic_clock() {
  static monotonic c;
  return c;
}

}  // namespace jetperf::measure
