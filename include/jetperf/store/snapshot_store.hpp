#pragma once
// The journal of board-settings snapshots: one is "open" from before the first change until the
// settings are restored, so that a start-up after a crash knows what to put back.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <jetperf/store/database.hpp>

namespace jetperf::store {

struct snapshot_record {
  std::int64_t id = 0;
  std::int64_t job_id = 0;        ///< 0 when taken for an API change
  std::int64_t created_ns = 0;    ///< wall clock
  std::int64_t restored_ns = 0;   ///< wall clock; 0 while open
  nlohmann::json state;           ///< the board settings before the change
  std::string reason;             ///< "job", "api", ...
};

class snapshot_store {
 public:
  explicit snapshot_store(database& db) : db_(db) {}

  /// Journals the settings before a change (created_ns = wall clock); returns the snapshot's id.
  std::int64_t open(std::int64_t job_id, const std::string& reason, const nlohmann::json& state);
  /// The oldest snapshot still open (its state is the board's state before any change).
  std::optional<snapshot_record> oldest_open() const;
  /// The newest snapshot of `job_id` (0: the API's) still open.
  std::optional<snapshot_record> open_of(std::int64_t job_id) const;
  /// Closes the open snapshots of `job_id` (after its restore).
  void close(std::int64_t job_id);
  /// Closes every open snapshot (after a restore), stamping restored_ns with the wall clock.
  void close_all();
  std::optional<snapshot_record> get(std::int64_t id) const;

 private:
  database& db_;
};

}  // namespace jetperf::store
