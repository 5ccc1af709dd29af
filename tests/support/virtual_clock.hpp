#pragma once
// A clock for protocol tests: time moves only when the code under test sleeps (or a synthetic
// backend's work advances it), so a protocol that measures for seconds runs in milliseconds and
// takes the same path every time, whatever the host is doing.
#include <algorithm>
#include <cstdint>

#include <jetperf/measure/clock.hpp>

namespace jetperf::test {

class virtual_clock final : public measure::clock {
 public:
  /// Starts well after 0, so that "a few seconds before now" is a time too.
  explicit virtual_clock(std::int64_t start_ns = 100'000'000'000) : now_(start_ns) {}
  std::int64_t now_ns() const override { return now_; }
  void sleep_until(std::int64_t t_ns) override { now_ = std::max(now_, t_ns); }

 private:
  std::int64_t now_;
};

}  // namespace jetperf::test
