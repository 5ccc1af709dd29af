#include <jetperf/jobs/job_service.hpp>

#include <jetperf/jobs/job_progress.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

#include <spdlog/spdlog.h>

#include <jetperf/common/cell_json.hpp>
#include <jetperf/common/free_memory.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/thread_name.hpp>
#include <jetperf/measure/allow_reboot.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/jobs/point_outcome.hpp>
#include <jetperf/jobs/point_tally.hpp>
#include <jetperf/platform/reboot_plan.hpp>
#include <jetperf/platform/reboot_required.hpp>

namespace jetperf::jobs {

namespace {

// A sweep this large is almost certainly a mistake in the spec; it would also take weeks.
constexpr std::size_t k_max_points = 100000;
// How long DELETE waits for a running job to reach its next safe point.
constexpr std::chrono::seconds k_cancel_wait{10};
// Spans a point holds before it stores them (a few MB at most).
constexpr std::size_t k_spans_held = 4096;
// How often the idle runner retries storing a final state the database refused.
constexpr std::chrono::seconds k_state_retry{5};
std::string store_failure(const std::exception& e) {
  return dynamic_cast<const store_error*>(&e) ? store::k_store_failure_prefix + std::string(e.what()) : e.what();
}

// A point's power mode, read through the settings table (null or absent: left as it is).
std::optional<std::int64_t> point_power_mode(const record& point) {
  for (const auto& f : platform::setting_fields()) {
    if (f.member != &platform::board_setting::power_mode) continue;
    const auto* v = point.find(f.key);
    if (v && v->is_integer()) return v->integer();
  }
  return std::nullopt;
}

}  // namespace

job_service::job_service(store::database& db, workload_registry& registry, event_hub& hub,
                         platform::board_settings* board, telemetry::sample_source* telemetry,
                         job_service_options options)
    : db_(db), jobs_(db), timeline_(db), reboots_(db), costs_(db), model_(&costs_, options.cost_scope), registry_(registry),
      hub_(hub), board_(board), telemetry_(telemetry), options_(std::move(options)) {}

job_service::~job_service() { stop(); }

void job_service::start() {
  resume_after_reboot();
  for (auto id : jobs_.interrupt_running("the daemon stopped while this job was running")) {
    spdlog::warn("job {} was running when the daemon stopped; marked interrupted", id);
    publish(id, "state", {{"id", id}, {"state", "interrupted"}});
  }
  {
    // The store is the queue's truth: jobs submitted before start() are in it too.
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.clear();
    for (auto id : jobs_.queued_ids()) queue_.push_back(id);
    stopping_ = false;
    rebooting_ = false;
    if (!queue_.empty()) spdlog::info("{} queued job(s) waiting", queue_.size());
  }
  runner_ = std::thread([this] {
    name_this_thread(runner_thread_name);
    run_loop();
  });
}

void job_service::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ && !runner_.joinable()) return;
    stopping_ = true;
    if (running_) {
      abort_reason_ = abort_reason::shutdown;
      abort_ = true;
    }
  }
  wake_.notify_all();
  if (runner_.joinable()) runner_.join();
}

store::job_record job_service::submit(const std::string& kind, const nlohmann::json& spec,
                                      const std::vector<std::string>& tags) {
  auto& w = registry_.get(kind);
  const auto offered = board_ ? board_->offered() : platform::board_offer{};
  auto normalized = w.normalize(spec, offered);
  const auto plan = w.plan(normalized);
  const auto& points = plan->points();
  if (points.empty()) throw validation_error("spec", "the spec expands to an empty sweep", "empty_sweep");
  if (points.size() > k_max_points)
    throw validation_error("spec", "the sweep has " + std::to_string(points.size()) + " points; at most " +
                                       std::to_string(k_max_points) + " are allowed",
                           "too_many_points");
  const double estimate = estimate_job(w, *plan);
  std::optional<store::job_record> job;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) throw unavailable("the daemon is shutting down");
    if (queue_.size() >= options_.max_queued)
      throw unavailable("the queue is full (" + std::to_string(options_.max_queued) + " jobs)");
    const auto id =
        jobs_.insert(kind, normalized, tags, static_cast<std::int64_t>(points.size()), estimate, w.spec_version());
    queue_.push_back(id);
    // The answer is the job as queued: read after the wake-up, the runner may have taken it.
    job = jobs_.get(id);
    if (!job) throw not_found("job " + std::to_string(id) + " does not exist", "id");
    // Published before the runner can take the job (it takes it under this lock): published
    // after, "queued" could reach a watcher after the job's own "running" and "end".
    publish(id, "state", {{"id", id}, {"state", "queued"}});
  }
  wake_.notify_all();
  return *job;
}

nlohmann::json job_service::dry_run(const std::string& kind, const nlohmann::json& spec) const {
  auto& w = registry_.get(kind);
  const auto offered = board_ ? board_->offered() : platform::board_offer{};
  auto normalized = w.normalize(spec, offered);
  const auto plan = w.plan(normalized);
  const auto& points = plan->points();
  if (points.empty()) throw validation_error("spec", "the spec expands to an empty sweep", "empty_sweep");
  nlohmann::json skips = nlohmann::json::array();
  for (const auto& s : plan->foreseen_skips()) skips.push_back({{"reason", s.first}, {"points", s.second}});
  // The power-mode switches that reboot the board (allowed by the spec, or it was refused above).
  std::vector<std::int64_t> modes;
  for (const auto& p : points)
    if (auto m = point_power_mode(p)) modes.push_back(*m);
  nlohmann::json reboots = nlohmann::json::array();
  for (const auto& step : platform::reboot_steps(offered, modes))
    reboots.push_back({{"from", step.from}, {"to", step.to}, {"restore", step.restore}});
  // What will run, in order: the first points of it (a multi_dnn job's mappings are its points).
  constexpr std::size_t k_planned = 200;
  nlohmann::json planned = nlohmann::json::array();
  for (std::size_t i = 0; i < points.size() && i < k_planned; ++i) planned.push_back(to_json(points[i]));
  return {{"kind", kind},
          {"spec", normalized},
          {"points", points.size()},
          {"estimate_s", estimate_job(w, *plan)},
          {"would_skip", skips},
          {"reboots", reboots},
          {"planned", planned},
          {"planned_more", points.size() > k_planned ? points.size() - k_planned : 0}};
}

store::job_record job_service::cancel(std::int64_t id) {
  std::unique_lock<std::mutex> lock(mutex_);
  save_unsaved_states();
  auto job = jobs_.get(id);
  if (!job) throw not_found("job " + std::to_string(id) + " does not exist", "id");
  overlay_unsaved(*job);
  if (job->state == job_state::queued) {
    queue_.erase(std::remove(queue_.begin(), queue_.end(), id), queue_.end());
    try {
      jobs_.set_state(id, job_state::cancelled, "cancelled before it started");
      lock.unlock();
      publish(id, "state", {{"id", id}, {"state", "cancelled"}});
      publish(id, "end", {{"id", id}, {"state", "cancelled"}});
      return get(id);
    } catch (const conflict&) {
      // The runner took it meanwhile: cancel it as a running job.
      job = jobs_.get(id);
      if (!job) throw not_found("job " + std::to_string(id) + " does not exist", "id");
    }
  }
  if (job->state == job_state::running && running_ == id) {
    abort_reason_ = abort_reason::cancel;
    abort_ = true;
    // Wait for the runner to reach a safe point so the answer shows the final state.
    finished_.wait_for(lock, k_cancel_wait, [&] { return running_ != id; });
    lock.unlock();
    return get(id);
  }
  throw conflict("job " + std::to_string(id) + " is already " + to_string(job->state), "id");
}

store::job_record job_service::resume(std::int64_t id) {
  store::job_record queued;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    save_unsaved_states();
    auto job = jobs_.get(id);
    if (!job) throw not_found("job " + std::to_string(id) + " does not exist", "id");
    overlay_unsaved(*job);
    // An interrupted job goes on, and so does one that failed because its results could not be
    // stored (the state machine says which: store::can_transition).
    if (!can_transition(job->state, job_state::queued, job->error))
      throw conflict("only an interrupted job (or one the database could not store) can be resumed; job " +
                         std::to_string(id) + " is " + to_string(job->state),
                     "id");
    if (unsaved_.count(id))
      throw unavailable("job " + std::to_string(id) + "'s state is not stored yet (the database cannot be written)");
    if (stopping_) throw unavailable("the daemon is shutting down");
    jobs_.set_state(id, job_state::queued);
    queue_.push_back(id);
    // The answer is the job as queued: read after the wake-up, the runner may have taken it.
    job = jobs_.get(id);
    if (!job) throw not_found("job " + std::to_string(id) + " does not exist", "id");
    queued = *job;
    // Before the runner can take it, as in submit().
    publish(id, "state", {{"id", id}, {"state", "queued"}});
  }
  wake_.notify_all();
  return queued;
}

store::job_record job_service::get(std::int64_t id) const {
  auto job = jobs_.get(id);
  if (!job) throw not_found("job " + std::to_string(id) + " does not exist", "id");
  std::lock_guard<std::mutex> lock(mutex_);
  overlay_unsaved(*job);
  return *job;
}

std::vector<store::job_record> job_service::list(const store::job_filter& filter, std::int64_t* total) const {
  auto jobs = jobs_.list(filter, total);
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& job : jobs) overlay_unsaved(job);
  return jobs;
}

std::vector<store::point_record> job_service::points(std::int64_t id) const {
  get(id);
  return jobs_.points(id);
}

std::optional<std::int64_t> job_service::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

std::size_t job_service::queued_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size();
}

void job_service::run_loop() {
  for (;;) {
    std::int64_t id = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // While the board is going down for a job's reboot, queued jobs wait for the next start.
      // Waiting, the runner retries the final states the database refused.
      save_unsaved_states();
      while (!wake_.wait_for(lock, k_state_retry, [&] { return stopping_ || (!rebooting_ && !queue_.empty()); }))
        save_unsaved_states();
      if (stopping_) return;
      id = queue_.front();
      queue_.pop_front();
      running_ = id;
      abort_ = false;
      abort_reason_ = abort_reason::none;
    }
    try {
      auto job = jobs_.get(id);
      if (job && job->state == job_state::queued) run_job(std::move(*job));
    } catch (const std::exception& e) {
      // Storage failed under the job: record what we can and keep the runner alive.
      spdlog::error("job {}: {}", id, e.what());
      const auto why = store_failure(e);
      if (board_) {
        try {
          board_->restore();  // a no-op unless the job had armed it
        } catch (const std::exception& r) {
          spdlog::error("job {}: restoring the board failed: {}", id, r.what());
        }
      }
      save_final_state(id, job_state::failed, why);
      publish(id, "state", {{"id", id}, {"state", "failed"}, {"error", why}});
      publish(id, "end", {{"id", id}, {"state", "failed"}});
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      running_.reset();
    }
    finished_.notify_all();
    return_free_memory();  // a job's networks, buffers and rows
  }
}

// One run of a job on the runner thread: its plan, the per-point context and what its points
// came to, shared by the steps of run_job.
struct job_service::job_run {
  job_run(store::job_record j, workload& k) : job(std::move(j)), kind(k) {}

  store::job_record job;
  workload& kind;
  std::unique_ptr<job_plan> plan;
  std::int64_t first = 0;  ///< a resumed job goes on after its last finished point
  measure::point_context ctx;
  /// A point's spans are kept with the point (one transaction after it), never while it
  /// measures; past k_spans_held they are stored in parts as they come (a command run's 100 000
  /// markers, recorded after the run, held 300 MB).
  std::vector<store::timeline_span> spans;
  std::int64_t ok = 0, failed = 0;  ///< failed < 0: the job could not go on
  std::string last_error, guard_reason;
  /// Set when a point's power mode needs a reboot that the spec allows: {point index, mode}.
  std::optional<std::pair<std::int64_t, std::int64_t>> reboot;
  std::optional<job_progress> progress;
  std::int64_t point_started_ns = 0;  ///< where the next point's span starts: the last one's end

  std::int64_t id() const { return job.id; }
  std::int64_t size() const { return static_cast<std::int64_t>(plan->points().size()); }
};

void job_service::run_job(store::job_record job) {
  auto& w = registry_.get(job.kind);
  job_run run(std::move(job), w);
  // The stored spec, in its kind's current form, parsed and expanded once for the whole job.
  run.plan = w.plan(w.upgrade(run.job.spec, run.job.spec_version));
  if (!begin_run(run)) return;
  run.ctx = point_context_for(run);
  run.point_started_ns = monotonic_ns();
  run.progress.emplace([this, &run] { return estimate_points(run.kind, *run.plan); },
                       model_.calibration(run.job.kind), static_cast<std::size_t>(run.first), run.point_started_ns);
  if (options_.on_running) options_.on_running(run.id());
  if (options_.provenance) record_provenance(run.id());
  record_clocks(run.id());
  try {
    if (board_) board_->arm(run.id());
    for (auto i = run.first; i < run.size() && !abort_; ++i)
      if (!run_point_of(run, i)) break;
  } catch (const std::exception& e) {
    // Outside a point (arming the board, storing a point or the progress): the job cannot go on.
    run.last_error = store_failure(e);
    run.failed = -1;
  }
  if (options_.on_running) options_.on_running(std::nullopt);
  learn_from(run);
  if (run.reboot) {
    if (reboot_for(run.job, run.reboot->first, run.reboot->second)) return;
    run.failed = -1;
    run.last_error = "rebooting into power mode " + std::to_string(run.reboot->second) + " failed";
  }
  end_run(run);
}

bool job_service::begin_run(job_run& run) {
  const auto id = run.id();
  run.first = jobs_.count_points(id);
  // What an interrupted point stored of its spans goes before the job reads as running again.
  timeline_.remove_from_point(id, run.first);
  try {
    jobs_.set_state(id, job_state::running);
  } catch (const conflict& e) {
    // Cancelled between leaving the queue and starting: it does not run.
    spdlog::info("job {} not started: {}", id, e.what());
    return false;
  }
  publish(id, "state", {{"id", id}, {"state", "running"}});
  spdlog::info("job {} ({}) running: {} points, starting at {}", id, run.job.kind, run.size(), run.first);
  return true;
}

measure::point_context job_service::point_context_for(job_run& run) {
  const auto id = run.id();
  measure::point_context ctx;
  ctx.job_id = id;
  ctx.cancel = &abort_;
  ctx.board = board_;
  ctx.telemetry = telemetry_;
  ctx.fidelity = options_.fidelity;
  ctx.processes = options_.processes;
  ctx.cpu_usage = options_.cpu_usage;
  ctx.event = [this, id](const std::string& type, const record& data) {
    const auto j = to_json(data);
    jobs_.add_event(id, type, j);
    publish(id, type, j);
  };
  ctx.timeline = [this, &run, id](measure::timeline_span s) {
    run.spans.push_back(
        {id, s.point_index, std::move(s.track), std::move(s.name), s.t_start_ns, s.t_end_ns, to_json(s.args)});
    if (run.spans.size() >= k_spans_held) store_spans(id, run.spans);
  };
  return ctx;
}

bool job_service::run_point_of(job_run& run, std::int64_t i) {
  const auto id = run.id();
  run.guard_reason = thermal_violation();
  if (!run.guard_reason.empty()) {
    spdlog::warn("job {}: {}", id, run.guard_reason);
    jobs_.add_event(id, "thermal_guard", {{"reason", run.guard_reason}});
    return false;
  }
  run.ctx.index = i;
  store::point_record p;
  p.job_id = id;
  p.index = i;
  p.params = to_json(run.plan->points()[static_cast<std::size_t>(i)]);
  const auto record_failure = [&](const std::string& what) {
    p.status = "failed";
    p.metrics = {{"error", what}};
    run.last_error = what;
    spdlog::warn("job {} point {} failed: {}", id, p.index, what);
  };
  try {
    auto r = run.plan->run_point(run.ctx, static_cast<std::size_t>(i));
    // A point cut short by cancellation or shutdown is not a result.
    if (abort_) return false;
    // A point that ran without its main metrics says why, never ok.
    p.status = r.status == "ok" ? settle_status(run.kind.columns(), r.metrics) : r.status;
    p.metrics = to_json(r.metrics);
    p.t_start_ns = r.t_start_ns;
    p.t_end_ns = r.t_end_ns;
    if (p.status == "ok" && r.cost) model_.record_run(run.job.kind, *r.cost, r.run_s, r.run_cv);
  } catch (const platform::reboot_required& e) {
    if (abort_) return false;
    if (board_ && measure::allows_reboot(run.job.spec)) {
      run.reboot.emplace(i, e.power_mode());
      return false;
    }
    record_failure(e.what());
  } catch (const std::exception& e) {
    if (abort_) return false;
    record_failure(e.what());
  }
  (p.status == "failed" ? run.failed : run.ok)++;
  jobs_.add_point(p);
  record_point_spans(id, p, run.point_started_ns, monotonic_ns(), run.spans);
  run.point_started_ns = monotonic_ns();
  report_progress(run, i, p.status, run.point_started_ns);
  return true;
}

void job_service::report_progress(job_run& run, std::int64_t i, const std::string& status, std::int64_t now_ns) {
  const auto id = run.id();
  const double eta = run.progress->point_done(static_cast<std::size_t>(i), now_ns);
  const auto done = i + 1;
  jobs_.set_progress(id, done, run.size(), run.progress->actual_s() + eta);
  publish(id, "point", {{"id", id}, {"index", i}, {"status", status}});
  publish(id, "progress", {{"id", id}, {"done", done}, {"total", run.size()}, {"eta_s", eta}});
}

void job_service::learn_from(job_run& run) {
  // The kind's estimate against the time its points took, both with what this job taught the
  // model about its runs: what is left is the protocol's own error, which later jobs scale by.
  if (run.progress->actual_s() <= 0) return;
  // What the model learns is not worth the job's ending: a store that refuses it is logged.
  try {
    const auto ran = static_cast<std::size_t>(jobs_.count_points(run.id()));
    model_.record_job(run.job.kind, run.progress->estimated_s(ran), run.progress->actual_s());
  } catch (const std::exception& e) {
    spdlog::warn("job {}: the cost model did not learn from it: {}", run.id(), e.what());
  }
}

void job_service::end_run(job_run& run) {
  const auto id = run.id();
  // Read before restoring: putting the power mode back may reboot the board, and the shutdown
  // that follows must not turn a finished job into an interrupted one.
  abort_reason reason;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    reason = abort_ ? abort_reason_ : abort_reason::none;
  }
  if (board_) {
    try {
      board_->restore();
    } catch (const std::exception& e) {
      spdlog::error("job {}: restoring the board failed: {}", id, e.what());
      run.last_error = "restoring the board failed: " + std::string(e.what());
    }
  }
  // Counted over every point of the job, those of earlier runs of a resumed job included.
  const auto stored = jobs_.points(id);
  const auto tally = tally_points(stored);
  const auto [final_state, error] = final_state_of(run, reason, tally);
  store_summary(run, stored, tally);
  if (options_.provenance) record_provenance(id);
  record_clocks(id);
  save_final_state(id, final_state, error);
  spdlog::info("job {} {}", id, to_string(final_state));
  nlohmann::json state = {{"id", id}, {"state", to_string(final_state)}};
  if (!error.empty()) state["error"] = error;
  publish(id, "state", state);
  publish(id, "end", {{"id", id}, {"state", to_string(final_state)}});
}

std::pair<job_state, std::string> job_service::final_state_of(const job_run& run, abort_reason reason,
                                                              const point_tally& tally) const {
  if (reason == abort_reason::cancel) return {job_state::cancelled, "cancelled while running"};
  if (reason == abort_reason::shutdown)
    return {job_state::interrupted, "the daemon shut down while this job was running"};
  if (!run.guard_reason.empty()) return {job_state::failed, run.guard_reason};
  if (run.failed < 0 || (run.ok == 0 && run.failed > 0)) return {job_state::failed, run.last_error};
  // Succeeded only when every point has its main metrics: partial when some have, failed when none.
  if (!tally.shortfall().empty()) return {tally.ok > 0 ? job_state::partial : job_state::failed, tally.shortfall()};
  return {job_state::succeeded, ""};
}

void job_service::store_summary(const job_run& run, const std::vector<store::point_record>& stored,
                                const point_tally& tally) {
  try {
    auto summary = run.kind.summarize(run.job.spec, stored);
    if (!summary.is_object()) summary = nlohmann::json::object();
    summary["points"] = tally.to_json();
    summary["caveats"] = tally.caveats();
    jobs_.set_summary(run.id(), summary);
  } catch (const std::exception& e) {
    spdlog::warn("job {}: summary failed: {}", run.id(), e.what());
  }
}

void job_service::record_point_spans(std::int64_t id, const store::point_record& p, std::int64_t started_ns,
                                     std::int64_t ended_ns, std::vector<store::timeline_span>& spans) {
  nlohmann::json args = {{"params", p.params}, {"status", p.status}};
  if (p.metrics.contains("reason")) args["reason"] = p.metrics["reason"];
  if (p.metrics.contains("error")) args["error"] = p.metrics["error"];
  spans.push_back({id, p.index, "points", "point " + std::to_string(p.index), started_ns, ended_ns, std::move(args)});
  if (p.t_end_ns > p.t_start_ns)
    spans.push_back({id, p.index, "windows", "window " + std::to_string(p.index), p.t_start_ns, p.t_end_ns,
                     nlohmann::json::object()});
  store_spans(id, spans);
}

void job_service::store_spans(std::int64_t id, std::vector<store::timeline_span>& spans) {
  try {
    timeline_.add(spans);
  } catch (const std::exception& e) {
    // The timeline is a view of the job; losing it must not fail the measurement it shows.
    spdlog::warn("job {}: {} timeline spans were not stored: {}", id, spans.size(), e.what());
  }
  spans.clear();
  spans.shrink_to_fit();
}

std::vector<double> job_service::estimate_points(const workload& w, const job_plan& plan) const {
  return plan.estimate_points_s(model_.context(w.kind(), telemetry_ ? telemetry_->update_period_s() : 0.0));
}

double job_service::estimate_job(const workload& w, const job_plan& plan) const {
  double sum = 0;
  for (double t : estimate_points(w, plan)) sum += t;
  return sum * model_.calibration(w.kind());
}

void job_service::record_clocks(std::int64_t id) {
  const auto c = read_clock_pair();
  try {
    timeline_.add({{id, std::nullopt, "clocks", "realtime", c.monotonic_ns, c.monotonic_ns,
                    {{"realtime_ns", c.realtime_ns}, {"read_ns", c.read_ns}}}});
  } catch (const std::exception& e) {
    spdlog::warn("job {}: clock reading not stored: {}", id, e.what());
  }
}

void job_service::record_provenance(std::int64_t id) {
  try {
    jobs_.set_provenance(id, options_.provenance());
  } catch (const std::exception& e) {
    spdlog::warn("job {}: provenance not recorded: {}", id, e.what());
  }
}

bool job_service::reboot_for(const store::job_record& job, std::int64_t index, std::int64_t power_mode) {
  const auto id = job.id;
  const std::string why = "waiting for the board to reboot into power mode " + std::to_string(power_mode) +
                          "; the job goes on at point " + std::to_string(index) + " after the boot";
  // Journaled before nvpmodel is answered YES: a real board goes down while nvpmodel runs.
  reboots_.record(id, index, power_mode);
  jobs_.add_event(id, "reboot", {{"index", index}, {"power_mode", power_mode}});
  jobs_.set_state(id, job_state::interrupted, why);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    rebooting_ = true;
  }
  try {
    board_->reboot_into(power_mode);
  } catch (const std::exception& e) {
    bool going_down = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      going_down = abort_ && abort_reason_ == abort_reason::shutdown;
    }
    if (going_down) {
      // The shutdown of the reboot itself cut nvpmodel short (systemd stops the whole unit):
      // the journal stays, and the next start checks which mode the board booted in.
      spdlog::warn("job {}: nvpmodel ended with the shutdown ({}); the next start checks the mode", id, e.what());
      return true;
    }
    spdlog::error("job {}: rebooting into power mode {} failed: {}", id, power_mode, e.what());
    reboots_.clear(id);
    jobs_.add_event(id, "reboot_failed", {{"index", index}, {"power_mode", power_mode}, {"error", e.what()}});
    jobs_.set_state(id, job_state::running);
    std::lock_guard<std::mutex> lock(mutex_);
    rebooting_ = false;
    return false;
  }
  spdlog::warn("job {}: {}", id, why);
  publish(id, "state", {{"id", id}, {"state", "interrupted"}, {"error", why}, {"reboot", true}});
  return true;
}

void job_service::resume_after_reboot() {
  const auto pending = reboots_.pending();
  if (!pending) return;
  const auto id = pending->job_id;
  reboots_.clear(id);
  // Only a job still waiting for its reboot goes on (one cancelled meanwhile stays as it is).
  const auto job = jobs_.get(id);
  if (!job || (job->state != job_state::interrupted && job->state != job_state::running)) return;
  const auto mode = board_ ? board_->rearm(id) : std::nullopt;
  nlohmann::json data{{"index", pending->point_index},
                      {"power_mode", pending->power_mode},
                      {"booted_in", mode ? nlohmann::json(*mode) : nlohmann::json()}};
  if (mode && *mode == pending->power_mode) {
    spdlog::info("job {}: the board booted in power mode {}; the job goes on at point {}", id, *mode,
                 pending->point_index);
    jobs_.add_event(id, "rebooted", data);
    jobs_.set_state(id, job_state::queued);
    publish(id, "state", {{"id", id}, {"state", "queued"}});
    return;
  }
  // Not the boot the job asked for (the mode did not take, or jetperfd restarted without one):
  // the job stays resumable and the board goes back to how it was before the job.
  const std::string why = "the board came back in power mode " + (mode ? std::to_string(*mode) : std::string("unknown")) +
                          " instead of " + std::to_string(pending->power_mode) + " after the reboot";
  spdlog::error("job {}: {}", id, why);
  jobs_.add_event(id, "reboot_failed", data);
  jobs_.set_state(id, job_state::interrupted, why);
  publish(id, "state", {{"id", id}, {"state", "interrupted"}, {"error", why}});
  if (board_) {
    try {
      board_->restore();
    } catch (const std::exception& e) {
      spdlog::error("job {}: restoring the board failed: {}", id, e.what());
    }
  }
}

std::string job_service::thermal_violation() const {
  if (options_.thermal_limit_c <= 0 || !telemetry_) return {};
  const auto channels = telemetry_->channels();
  const auto now = monotonic_ns();
  for (const auto& s : telemetry_->window(now - 1000000000LL, now)) {
    if (s.channel < 0 || s.channel >= static_cast<int>(channels.size())) continue;
    const auto& ch = channels[s.channel];
    if (ch.kind == telemetry::channel_kind::temperature && s.value > options_.thermal_limit_c) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "thermal guard: %s at %.1f C exceeds the %.1f C limit", ch.name.c_str(),
                    s.value, options_.thermal_limit_c);
      return buf;
    }
  }
  return {};
}

void job_service::save_final_state(std::int64_t id, job_state state, const std::string& error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    unsaved_[id] = {state, error};
    save_unsaved_states();
    // Ended in the same step as its state is stored: a reader that sees the final state never
    // sees the job still running (qemu's slow threads showed the gap).
    if (running_ == id) running_.reset();
  }
  finished_.notify_all();
}

void job_service::save_unsaved_states() {
  for (auto it = unsaved_.begin(); it != unsaved_.end();) {
    try {
      jobs_.set_state(it->first, it->second.first, it->second.second);
      it = unsaved_.erase(it);
    } catch (const conflict& e) {
      // Not a storage problem: the state machine refuses it, and retrying cannot change that.
      spdlog::error("job {}: its final state ({}) is refused: {}", it->first, to_string(it->second.first), e.what());
      it = unsaved_.erase(it);
    } catch (const std::exception& e) {
      // Kept in memory (reads show it) and retried; a restart marks the job interrupted.
      spdlog::error("job {}: its final state ({}) is not stored yet: {}", it->first, to_string(it->second.first),
                    e.what());
      ++it;
    }
  }
}

void job_service::overlay_unsaved(store::job_record& job) const {
  const auto it = unsaved_.find(job.id);
  if (it == unsaved_.end()) return;
  job.state = it->second.first;
  job.error = it->second.second;
}

void job_service::publish(std::int64_t id, const std::string& event, const nlohmann::json& data) {
  const auto text = data.dump();
  hub_.publish("job:" + std::to_string(id), event, text);
  hub_.publish("jobs", event, text);
}

}  // namespace jetperf::jobs
