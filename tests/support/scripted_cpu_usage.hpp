#pragma once
// A CPU usage source for contention tests: each window asks twice (start, stop), and the stop
// answers with the next scripted share of the cores' time that other processes took (0 once the
// script runs out), the daemon's own quarter not counting.
#include <deque>
#include <optional>

#include <jetperf/measure/clock.hpp>
#include <jetperf/platform/cpu_usage.hpp>

namespace jetperf::test {

class scripted_cpu_usage final : public platform::cpu_usage {
 public:
  scripted_cpu_usage(const measure::clock& time, std::deque<double> shares) : time_(time), shares_(std::move(shares)) {}
  platform::cpu_usage_snapshot now() const override {
    platform::cpu_usage_snapshot s;
    s.t_ns = time_.now_ns();
    s.cores = 2;
    if (!started_) {
      started_ = s;
      return s;
    }
    const double wall = static_cast<double>(s.t_ns - started_->t_ns) * 1e-9 * s.cores;
    const double share = shares_.empty() ? 0.0 : shares_.front();
    if (!shares_.empty()) shares_.pop_front();
    s.own_s = started_->own_s + 0.25 * wall;  // the daemon's own time does not count
    s.busy_s = started_->busy_s + 0.25 * wall + share * wall;
    started_.reset();
    ++windows;
    return s;
  }
  mutable int windows = 0;

 private:
  const measure::clock& time_;
  mutable std::deque<double> shares_;
  mutable std::optional<platform::cpu_usage_snapshot> started_;
};

}  // namespace jetperf::test
