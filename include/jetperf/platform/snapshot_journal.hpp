#pragma once
// Where board snapshots are journaled before a change, so that a start-up after a crash can put
// the board back. The daemon uses its store_snapshot_journal (SQLite); tests use memory_snapshot_journal.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace jetperf::platform {

class snapshot_journal {
 public:
  virtual ~snapshot_journal() = default;
  /// Records a snapshot taken before the first change (job_id 0 for API changes).
  virtual void open(std::int64_t job_id, const std::string& reason, const nlohmann::json& state) = 0;
  /// The state of the oldest snapshot still open: the board as it was before any change.
  virtual std::optional<nlohmann::json> oldest_open() = 0;
  /// The state of `job_id`'s open snapshot (0: the API's), if any.
  virtual std::optional<nlohmann::json> open_of(std::int64_t job_id) = 0;
  /// Marks the open snapshots of `job_id` restored.
  virtual void close(std::int64_t job_id) = 0;
  /// Marks every open snapshot restored.
  virtual void close_all() = 0;
};

}  // namespace jetperf::platform
