#pragma once
// Jobs that go on after a reboot they asked for: written before the board is told to reboot, so
// that the start-up after the boot resumes the job at its point instead of restoring the board.
#include <cstdint>
#include <optional>

#include <jetperf/store/database.hpp>

namespace jetperf::store {

struct reboot_resume {
  std::int64_t job_id = 0;
  std::int64_t point_index = 0;  ///< the point measured first after the boot
  std::int64_t power_mode = 0;   ///< the mode the board must boot in
  std::int64_t created_ns = 0;   ///< wall clock
};

class reboot_journal {
 public:
  explicit reboot_journal(database& db) : db_(db) {}

  /// Journals that `job_id` goes on at `point_index` once the board has booted in `power_mode`
  /// (replacing an earlier record of the same job).
  void record(std::int64_t job_id, std::int64_t point_index, std::int64_t power_mode);
  /// The oldest record, if any (one job runs at a time, so there is at most one in practice).
  std::optional<reboot_resume> pending() const;
  /// Removes the record of `job_id`.
  void clear(std::int64_t job_id);

 private:
  database& db_;
};

}  // namespace jetperf::store
