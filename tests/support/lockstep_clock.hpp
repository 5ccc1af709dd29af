#pragma once
// Virtual time for a protocol that runs threads of its own (measure/protocols/concurrent.hpp):
// a fixed set of threads takes part, and time moves only once every one of them is asleep on the
// clock, then straight to the earliest wake-up. Whatever the host does, each thread sees the same
// times in the same order, so a window of seconds runs in milliseconds and its counts are exact,
// as long as no two threads wake at the same instant to touch the same state (a test chooses
// durations that never meet the protocol's own wake-ups).
// A taking-part thread that ends must leave() first, or the others wait for it for ever.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>

#include <jetperf/measure/clock.hpp>

namespace jetperf::test {

class lockstep_clock final : public measure::clock {
 public:
  /// `threads`: how many threads take part (the protocol's own and those it starts).
  explicit lockstep_clock(std::size_t threads, std::int64_t start_ns = 100'000'000'000)
      : threads_(threads), now_(start_ns) {}

  std::int64_t now_ns() const override {
    std::lock_guard<std::mutex> lock(m_);
    return now_;
  }
  void sleep_until(std::int64_t t_ns) override {
    std::unique_lock<std::mutex> lock(m_);
    if (t_ns <= now_) return;
    wakes_.insert(t_ns);
    advance_if_all_asleep();
    woken_.wait(lock, [&] { return now_ >= t_ns; });
  }
  /// The calling thread takes no more part (it is about to end).
  void leave() {
    std::lock_guard<std::mutex> lock(m_);
    --threads_;
    advance_if_all_asleep();
  }

 private:
  // Every thread asleep: on to the earliest wake-up, whose sleepers are no longer asleep.
  void advance_if_all_asleep() {
    if (threads_ == 0 || wakes_.size() < threads_) return;
    now_ = *wakes_.begin();
    wakes_.erase(now_);
    woken_.notify_all();
  }

  mutable std::mutex m_;
  std::condition_variable woken_;
  std::size_t threads_;
  std::int64_t now_;
  std::multiset<std::int64_t> wakes_;  ///< of the threads asleep
};

/// Makes the calling thread leave `clock` when it ends: a thread_local of it, made on the thread's
/// first call.
inline void leave_at_thread_exit(lockstep_clock& clock) {
  struct leaver {
    lockstep_clock& clock;
    ~leaver() { clock.leave(); }
  };
  thread_local leaver at_exit{clock};
  (void)at_exit;
}

}  // namespace jetperf::test
