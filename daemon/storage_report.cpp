#include "storage_report.hpp"

#include <sys/statvfs.h>

#include <filesystem>
#include <system_error>

#include <jetperf/common/clock.hpp>

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

}  // namespace jetperf::daemon
