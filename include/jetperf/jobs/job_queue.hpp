#pragma once
// The queued jobs and their states: what submit, cancel and resume change, and the slot of the
// one job that runs. The store is the queue's truth (queued jobs survive restarts); this keeps
// their order, the running job and why it must stop, under one lock that the runner shares.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/event_hub.hpp>
#include <jetperf/jobs/job_journal.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/store/job_store.hpp>

namespace jetperf::jobs {

/// Why the running job stops at its next safe point.
enum class abort_reason { none, cancel, shutdown };

class job_queue {
 public:
  /// Submissions beyond `max_queued` queued jobs are refused (unavailable).
  job_queue(store::job_store& jobs, job_journal& journal, event_hub& hub, std::size_t max_queued);

  /// Persists a queued job (already validated and estimated, from `basis`) and wakes the runner.
  /// Throws unavailable (queue full or stopping).
  store::job_record submit(const std::string& kind, const record& spec, const std::vector<std::string>& tags,
                           std::int64_t points, double estimate_s, std::int64_t spec_version,
                           const store::estimate_basis& basis = {});
  /// Cancels a queued job, or stops the running one and waits for its final state. Throws
  /// not_found, conflict (already finished).
  store::job_record cancel(std::int64_t id);
  /// Queues an interrupted job again, or one that failed because the database could not be
  /// written. Throws not_found, conflict (neither), unavailable (its failure is not stored yet).
  store::job_record resume(std::int64_t id);
  /// A job as reads see it (its unsaved final state, if any). Throws not_found.
  store::job_record get(std::int64_t id) const;
  std::vector<store::job_record> list(const store::job_filter& filter, std::int64_t* total) const;
  std::optional<std::int64_t> running() const;
  std::size_t queued_count() const;

  /// At start: marks jobs left running by a dead process interrupted and queues what the store has
  /// queued (jobs submitted before start too).
  void reopen();
  /// Refuses submissions and wakes the runner to end; the running job stops as interrupted.
  void stop();
  /// The runner's next job, waited for (retrying unsaved final states meanwhile), in the running
  /// slot; nullopt when stopping. Nothing is taken while a reboot is under way.
  std::optional<std::int64_t> take();
  /// Stores the running job's final state and empties the slot in one step: a reader that sees
  /// the final state never sees the job still running.
  void finish(std::int64_t id, job_state state, const std::string& error);
  /// Empties the running slot (the runner is done with the job, whatever became of it).
  void release();
  /// Set while the running job must stop at its next safe point (what its points poll).
  const std::atomic<bool>& abort_flag() const { return abort_; }
  bool aborting() const { return abort_; }
  /// Why the running job stops (none while it need not).
  abort_reason reason() const;
  /// A job's reboot is under way (true): nothing more runs in this process.
  void set_rebooting(bool rebooting);

 private:
  void publish_queued(std::int64_t id);
  store::job_record read_back(std::int64_t id) const;

  store::job_store& jobs_;
  job_journal& journal_;
  event_hub& hub_;
  std::size_t max_queued_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;      // a job was queued, or stopping
  std::condition_variable finished_;  // a job left the running slot
  std::deque<std::int64_t> queue_;
  std::optional<std::int64_t> running_;
  // Set to end the running job at its next safe point; abort_reason_ says why.
  std::atomic<bool> abort_{false};
  abort_reason abort_reason_ = abort_reason::none;  // guarded by mutex_
  bool stopping_ = false;
  bool rebooting_ = false;  // a job's reboot is under way: nothing more runs in this process
};

}  // namespace jetperf::jobs
