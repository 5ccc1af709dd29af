#pragma once
// The store's footprint as /v1/health and /metrics report it (api::storage_status), read by a
// thread of its own every few seconds: a request only copies the latest figures. (Read on the
// request path, every health check stat'ed two files and the file system and ran a query on the
// connection the sample store writes through: 6.8k health answers a second on 2 cores against
// 30k before.)
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include <jetperf/api/storage_status.hpp>
#include <jetperf/store/retention_store.hpp>

#include "daemon_config.hpp"

namespace jetperf::daemon {

/// Reads, when called: the database file's size with its WAL, the free space on its file system
/// and the age of the oldest full-rate samples. `retention` must outlive the function.
std::function<api::storage_status()> storage_status_of(const daemon_config& config, const store::retention_store& retention);

/// `read` once at construction, then every `period` on its own thread until destroyed.
class storage_report {
 public:
  storage_report(std::function<api::storage_status()> read, std::chrono::milliseconds period);
  ~storage_report();
  storage_report(const storage_report&) = delete;
  storage_report& operator=(const storage_report&) = delete;

  /// The figures of the latest read: no file, file system or database touched.
  api::storage_status latest() const;

 private:
  void loop();

  std::function<api::storage_status()> read_;
  std::chrono::milliseconds period_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  api::storage_status latest_;
  std::thread thread_;
};

/// How often the daemon reads its storage figures.
constexpr std::chrono::milliseconds k_storage_report_period{2000};

}  // namespace jetperf::daemon
