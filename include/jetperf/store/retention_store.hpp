#pragma once
// Which jobs keep their samples whole (pinned) and what became of each job's samples (full,
// downsampled, dropped): the job_retention table. A job without a row is unpinned, at full rate.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/store/database.hpp>

namespace jetperf::store {

struct retention_record {
  bool pinned = false;
  std::string samples = "full";  ///< "full", "downsampled" or "dropped"
  std::int64_t changed_ns = 0;   ///< wall clock of the last change; 0 without a row
};

class retention_store {
 public:
  explicit retention_store(database& db) : db_(db) {}

  /// The job's row; nullopt when it has none (unpinned, at full rate).
  std::optional<retention_record> find(std::int64_t job_id) const;
  /// Pins or unpins a job (which must exist: the caller checks).
  void set_pinned(std::int64_t job_id, bool pinned, std::int64_t now_wall_ns);
  /// Records what became of a job's samples.
  void set_samples(std::int64_t job_id, const std::string& samples, std::int64_t now_wall_ns);
  /// Finished, unpinned jobs whose samples are still in one of `states` and that finished before
  /// `finished_before_wall_ns`: oldest first, at most `limit`.
  std::vector<std::int64_t> due(const std::vector<std::string>& states, std::int64_t finished_before_wall_ns,
                                std::size_t limit) const;
  /// When the oldest finished job whose samples are still at full rate finished (wall clock);
  /// nullopt when there is none.
  std::optional<std::int64_t> oldest_full_rate_finish() const;

 private:
  database& db_;
};

}  // namespace jetperf::store
