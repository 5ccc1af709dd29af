#pragma once
// The retention pass's thread: a niced background thread that runs store::retention_pass every
// so often while no job runs (never inside a measurement window), and says what it did.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include <jetperf/store/retention_pass.hpp>

namespace jetperf::daemon {

class retention_worker {
 public:
  /// `busy` says whether a job is queued or running (the pass then waits for the next period).
  retention_worker(store::retention_pass pass, std::int64_t period_ns, std::function<bool()> busy);
  ~retention_worker();
  retention_worker(const retention_worker&) = delete;
  retention_worker& operator=(const retention_worker&) = delete;

  void start();
  void stop();

  /// How often a pass runs for this policy: a tenth of retention_full_days, at least every
  /// second and at most hourly.
  static std::int64_t period_for(const store::retention_policy& policy);

 private:
  void loop();

  store::retention_pass pass_;
  std::int64_t period_ns_;
  std::function<bool()> busy_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace jetperf::daemon
