#pragma once
// One pass of retention over the store: finished, unpinned jobs older than retention_full_days get
// their samples downsampled to one record per channel and second, those older than retention_days
// dropped; then free pages go back to the file system a bounded number at a time (incremental
// auto_vacuum, never a VACUUM that would rewrite the whole file). Work is done a job at a time
// and, within a job, a channel per transaction, so a measurement never waits long on the store.
#include <cstdint>
#include <functional>

#include <jetperf/store/database.hpp>
#include <jetperf/store/retention_store.hpp>
#include <jetperf/store/sample_store.hpp>

namespace jetperf::store {

struct retention_policy {
  double full_days = 7;  ///< retention_full_days: samples at full rate
  double days = 90;      ///< retention_days: samples downsampled, then dropped
};

struct retention_outcome {
  std::int64_t downsampled_jobs = 0, dropped_jobs = 0;
  std::int64_t samples_downsampled = 0;  ///< full-rate samples that became...
  std::int64_t seconds_kept = 0;         ///< ...this many per-second records
  std::int64_t samples_dropped = 0;      ///< samples or records deleted
  std::int64_t pages_freed = 0;          ///< file pages given back (incremental vacuum)
  bool cut_short = false;                ///< `stop` said so, or more jobs were due than one pass takes
};

class retention_pass {
 public:
  /// Jobs one pass handles at most; the rest wait for the next.
  static constexpr std::size_t k_jobs_per_pass = 64;
  /// Pages (of 4 KiB by default) an incremental vacuum gives back at most per pass.
  static constexpr std::int64_t k_vacuum_pages = 16384;

  retention_pass(database& db, sample_store& samples, retention_store& retention, retention_policy policy)
      : db_(db), samples_(samples), retention_(retention), policy_(policy) {}

  /// Runs the pass as of `now_wall_ns`; `stop` (when given) is asked before each job, and a true
  /// answer ends the pass there (a job is about to run).
  retention_outcome run(std::int64_t now_wall_ns, const std::function<bool()>& stop = {});

 private:
  std::int64_t vacuum();

  database& db_;
  sample_store& samples_;
  retention_store& retention_;
  retention_policy policy_;
};

}  // namespace jetperf::store
