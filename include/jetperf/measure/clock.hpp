#pragma once
// The time a protocol runs on: CLOCK_MONOTONIC on a board (every sample and span is stamped on
// it), a virtual clock in tests, where a synthetic board's work and its sensor advance the same
// clock and a protocol that measures for seconds runs in milliseconds, the same way every time.
#include <cstdint>

namespace jetperf::measure {

class clock {
 public:
  virtual ~clock() = default;
  /// Now, in nanoseconds on the clock the samples are stamped on.
  virtual std::int64_t now_ns() const = 0;
  /// Returns at `t_ns` or later (at once when it has passed).
  virtual void sleep_until(std::int64_t t_ns) = 0;
  void sleep_for(std::int64_t ns) { sleep_until(now_ns() + ns); }
};

/// CLOCK_MONOTONIC, asleep on clock_nanosleep with an absolute deadline (no drift from a wake-up
/// that comes late).
clock& monotonic_clock();

}  // namespace jetperf::measure
