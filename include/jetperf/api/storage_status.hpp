#pragma once
// What the daemon's store costs on disk, for GET /v1/health, `jetperf health` and /metrics.
#include <cstdint>
#include <optional>

namespace jetperf::api {

struct storage_status {
  std::int64_t database_bytes = 0;    ///< the SQLite file with its WAL
  std::int64_t disk_free_bytes = 0;   ///< free space for the daemon on its file system
  /// Days since the oldest finished job whose samples are still at full rate finished (pinned
  /// jobs included); nullopt when there is none.
  std::optional<double> full_rate_days;
  double retention_full_days = 7;
  double retention_days = 90;
};

}  // namespace jetperf::api
