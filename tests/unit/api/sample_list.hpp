#pragma once
// Samples a test adds by hand, read back as a telemetry_view's window() reads the sampler's ring:
// those within [from_ns, to_ns], in the order added. Thread-safe: feed threads read it.
#include <cstdint>
#include <mutex>
#include <vector>

#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::test {

class sample_list {
 public:
  void add(telemetry::sample s) {
    std::lock_guard<std::mutex> lock(mutex_);
    samples_.push_back(s);
  }
  std::vector<telemetry::sample> window(std::int64_t from_ns, std::int64_t to_ns) const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<telemetry::sample> out;
    for (const auto& s : samples_)
      if (s.t_ns >= from_ns && s.t_ns <= to_ns) out.push_back(s);
    return out;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<telemetry::sample> samples_;
};

}  // namespace jetperf::test
