#include "retention_worker.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>

namespace jetperf::daemon {

retention_worker::retention_worker(store::retention_pass pass, std::int64_t period_ns, std::function<bool()> busy)
    : pass_(std::move(pass)), period_ns_(period_ns), busy_(std::move(busy)) {}

retention_worker::~retention_worker() { stop(); }

std::int64_t retention_worker::period_for(const store::retention_policy& policy) {
  const double tenth_s = policy.full_days * 86400.0 / 10.0;
  return static_cast<std::int64_t>(std::clamp(tenth_s, 1.0, 3600.0) * 1e9);
}

void retention_worker::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { loop(); });
}

void retention_worker::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void retention_worker::loop() {
  // Niced: the pass decodes and rewrites samples, which must not take a core from the workload
  // of the next job should one start while it works (it stops between jobs when one does).
  ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 10);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::nanoseconds(period_ns_), [this] { return stopping_.load(); })) {
    if (busy_()) continue;
    lock.unlock();
    try {
      const auto out = pass_.run(wall_ns(), [this] { return busy_() || stopping_.load(); });
      if (out.downsampled_jobs + out.dropped_jobs > 0)
        spdlog::info("retention: {} jobs downsampled ({} samples to {} per-second records), {} dropped ({} samples); "
                     "{} pages given back",
                     out.downsampled_jobs, out.samples_downsampled, out.seconds_kept, out.dropped_jobs,
                     out.samples_dropped, out.pages_freed);
    } catch (const std::exception& e) {
      // A failed pass changes nothing it did not finish (each step is a transaction): try again later.
      spdlog::warn("retention: pass failed: {}", e.what());
    }
    lock.lock();
  }
}

}  // namespace jetperf::daemon
