#pragma once
// Where board snapshots are journaled before a change, so that a start-up after a crash can put
// the board back. The daemon uses its store_snapshot_journal (SQLite, whose JSON form of a
// snapshot is store/board_state_json.hpp); tests use memory_snapshot_journal.
#include <cstdint>
#include <optional>
#include <string>

#include <jetperf/platform/board_state.hpp>

namespace jetperf::platform {

class snapshot_journal {
 public:
  virtual ~snapshot_journal() = default;
  /// Records a snapshot taken before the first change (job_id 0 for API changes).
  virtual void open(std::int64_t job_id, const std::string& reason, const board_state& state) = 0;
  /// The state of the oldest snapshot still open: the board as it was before any change.
  /// Throws validation_error("state") when the journaled snapshot cannot be read back.
  virtual std::optional<board_state> oldest_open() = 0;
  /// The state of `job_id`'s open snapshot (0: the API's), if any; throws as oldest_open().
  virtual std::optional<board_state> open_of(std::int64_t job_id) = 0;
  /// Marks the open snapshots of `job_id` restored.
  virtual void close(std::int64_t job_id) = 0;
  /// Marks every open snapshot restored.
  virtual void close_all() = 0;
};

}  // namespace jetperf::platform
