#include "storage_report.hpp"

#include <sys/statvfs.h>

#include <filesystem>
#include <system_error>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/thread_name.hpp>

namespace jetperf::daemon {

namespace {
std::int64_t file_bytes(const std::string& path) {
  std::error_code ec;
  const auto n = std::filesystem::file_size(path, ec);
  return ec ? 0 : static_cast<std::int64_t>(n);
}
}  // namespace

std::function<api::storage_status()> storage_status_of(const daemon_config& config, const store::retention_store& retention) {
  const std::string db = config.db_path;
  const double full_days = config.retention_full_days, days = config.retention_days;
  return [db, full_days, days, &retention] {
    api::storage_status st;
    st.database_bytes = file_bytes(db) + file_bytes(db + "-wal");
    const auto dir = std::filesystem::path(db).parent_path();
    struct statvfs fs {};
    if (::statvfs(dir.empty() ? "." : dir.c_str(), &fs) == 0)
      st.disk_free_bytes = static_cast<std::int64_t>(fs.f_bavail) * static_cast<std::int64_t>(fs.f_frsize);
    if (const auto oldest = retention.oldest_full_rate_finish())
      st.full_rate_days = static_cast<double>(wall_ns() - *oldest) / 86400e9;
    st.retention_full_days = full_days;
    st.retention_days = days;
    return st;
  };
}

storage_report::storage_report(std::function<api::storage_status()> read, std::chrono::milliseconds period)
    : read_(std::move(read)), period_(period) {
  try {
    latest_ = read_();
  } catch (const std::exception& e) {
    spdlog::warn("storage report: {}", e.what());
  }
  thread_ = std::thread([this] {
    name_this_thread("jp-storage");
    loop();
  });
}

storage_report::~storage_report() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

api::storage_status storage_report::latest() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return latest_;
}

void storage_report::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, period_, [this] { return stopping_; })) {
    lock.unlock();
    try {
      auto now = read_();
      lock.lock();
      latest_ = now;
    } catch (const std::exception& e) {
      // A busy or full database this once: the figures before stay, the next read retries.
      spdlog::debug("storage report: {}", e.what());
      lock.lock();
    }
  }
}

}  // namespace jetperf::daemon
