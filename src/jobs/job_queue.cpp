#include <jetperf/jobs/job_queue.hpp>

#include <algorithm>
#include <chrono>

#include <spdlog/spdlog.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/jobs/job_events.hpp>
#include <jetperf/store/job_cells.hpp>

namespace jetperf::jobs {

namespace {
// How long DELETE waits for a running job to reach its next safe point.
constexpr std::chrono::seconds k_cancel_wait{10};
// How often the idle runner retries storing a final state the database refused.
constexpr std::chrono::seconds k_state_retry{5};
}  // namespace

job_queue::job_queue(store::job_store& jobs, job_journal& journal, event_hub& hub, std::size_t max_queued)
    : jobs_(jobs), journal_(journal), hub_(hub), max_queued_(max_queued) {}

store::job_record job_queue::submit(const std::string& kind, const record& spec,
                                    const std::vector<std::string>& tags, std::int64_t points, double estimate_s,
                                    std::int64_t spec_version, const store::estimate_basis& basis) {
  std::optional<store::job_record> job;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) throw unavailable("the daemon is shutting down");
    if (queue_.size() >= max_queued_)
      throw unavailable("the queue is full (" + std::to_string(max_queued_) + " jobs)");
    const auto id = store::insert_job(jobs_, kind, spec, tags, points, estimate_s, spec_version, basis);
    queue_.push_back(id);
    // The answer is the job as queued: read after the wake-up, the runner may have taken it.
    job = read_back(id);
    // Published before the runner can take the job (it takes it under this lock): published
    // after, "queued" could reach a watcher after the job's own "running" and "end".
    publish_queued(id);
  }
  wake_.notify_all();
  return *job;
}

store::job_record job_queue::cancel(std::int64_t id) {
  std::unique_lock<std::mutex> lock(mutex_);
  journal_.save_unsaved_states();
  auto job = read_back(id);
  journal_.overlay_unsaved(job);
  if (job.state == job_state::queued) {
    queue_.erase(std::remove(queue_.begin(), queue_.end(), id), queue_.end());
    try {
      jobs_.set_state(id, job_state::cancelled, "cancelled before it started");
      lock.unlock();
      publish_job_event(hub_, id, "state", {{"id", id}, {"state", "cancelled"}});
      publish_job_event(hub_, id, "end", {{"id", id}, {"state", "cancelled"}});
      return get(id);
    } catch (const conflict&) {
      // The runner took it meanwhile: cancel it as a running job.
      job = read_back(id);
    }
  }
  if (job.state == job_state::running && running_ == id) {
    abort_reason_ = abort_reason::cancel;
    abort_ = true;
    // Wait for the runner to reach a safe point so the answer shows the final state.
    finished_.wait_for(lock, k_cancel_wait, [&] { return running_ != id; });
    lock.unlock();
    return get(id);
  }
  throw conflict("job " + std::to_string(id) + " is already " + to_string(job.state), "id");
}

store::job_record job_queue::resume(std::int64_t id) {
  store::job_record queued;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    journal_.save_unsaved_states();
    auto job = read_back(id);
    journal_.overlay_unsaved(job);
    // An interrupted job goes on, and so does one that failed because its results could not be
    // stored (the state machine says which: store::can_transition).
    if (!can_transition(job.state, job_state::queued, job.error))
      throw conflict("only an interrupted job (or one the database could not store) can be resumed; job " +
                         std::to_string(id) + " is " + to_string(job.state),
                     "id");
    if (journal_.is_unsaved(id))
      throw unavailable("job " + std::to_string(id) + "'s state is not stored yet (the database cannot be written)");
    if (stopping_) throw unavailable("the daemon is shutting down");
    jobs_.set_state(id, job_state::queued);
    queue_.push_back(id);
    // The answer is the job as queued: read after the wake-up, the runner may have taken it.
    queued = read_back(id);
    // Before the runner can take it, as in submit().
    publish_queued(id);
  }
  wake_.notify_all();
  return queued;
}

store::job_record job_queue::get(std::int64_t id) const {
  auto job = read_back(id);
  journal_.overlay_unsaved(job);
  return job;
}

std::vector<store::job_record> job_queue::list(const store::job_filter& filter, std::int64_t* total) const {
  auto jobs = jobs_.list(filter, total);
  journal_.overlay_unsaved(jobs);
  return jobs;
}

std::optional<std::int64_t> job_queue::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

std::size_t job_queue::queued_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size();
}

void job_queue::reopen() {
  for (auto id : jobs_.interrupt_running("the daemon stopped while this job was running")) {
    spdlog::warn("job {} was running when the daemon stopped; marked interrupted", id);
    publish_job_event(hub_, id, "state", {{"id", id}, {"state", "interrupted"}});
  }
  // The store is the queue's truth: jobs submitted before start() are in it too.
  std::lock_guard<std::mutex> lock(mutex_);
  queue_.clear();
  for (auto id : jobs_.queued_ids()) queue_.push_back(id);
  stopping_ = false;
  rebooting_ = false;
  if (!queue_.empty()) spdlog::info("{} queued job(s) waiting", queue_.size());
}

void job_queue::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    if (running_) {
      abort_reason_ = abort_reason::shutdown;
      abort_ = true;
    }
  }
  wake_.notify_all();
}

std::optional<std::int64_t> job_queue::take() {
  std::unique_lock<std::mutex> lock(mutex_);
  // While the board is going down for a job's reboot, queued jobs wait for the next start.
  // Waiting, the runner retries the final states the database refused.
  journal_.save_unsaved_states();
  while (!wake_.wait_for(lock, k_state_retry, [&] { return stopping_ || (!rebooting_ && !queue_.empty()); }))
    journal_.save_unsaved_states();
  if (stopping_) return std::nullopt;
  const auto id = queue_.front();
  queue_.pop_front();
  running_ = id;
  abort_ = false;
  abort_reason_ = abort_reason::none;
  return id;
}

void job_queue::finish(std::int64_t id, job_state state, const std::string& error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    journal_.save_final_state(id, state, error);
    // Ended in the same step as its state is stored: a reader that sees the final state never
    // sees the job still running (qemu's slow threads showed the gap).
    if (running_ == id) running_.reset();
  }
  finished_.notify_all();
}

void job_queue::release() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    running_.reset();
  }
  finished_.notify_all();
}

abort_reason job_queue::reason() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return abort_ ? abort_reason_ : abort_reason::none;
}

void job_queue::set_rebooting(bool rebooting) {
  std::lock_guard<std::mutex> lock(mutex_);
  rebooting_ = rebooting;
}

void job_queue::publish_queued(std::int64_t id) {
  publish_job_event(hub_, id, "state", {{"id", id}, {"state", "queued"}});
}

store::job_record job_queue::read_back(std::int64_t id) const {
  auto job = jobs_.get(id);
  if (!job) throw not_found("job " + std::to_string(id) + " does not exist", "id");
  return *job;
}

}  // namespace jetperf::jobs
