#include <jetperf/jobs/job_runner.hpp>

#include <cstdio>
#include <memory>
#include <vector>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/free_memory.hpp>
#include <jetperf/common/thread_name.hpp>
#include <jetperf/jobs/board_guard.hpp>
#include <jetperf/jobs/estimate_basis_record.hpp>
#include <jetperf/jobs/job_events.hpp>
#include <jetperf/jobs/job_progress.hpp>
#include <jetperf/jobs/point_outcome.hpp>
#include <jetperf/jobs/allow_reboot.hpp>
#include <jetperf/measure/point_columns.hpp>
#include <jetperf/measure/row_bounds.hpp>
#include <jetperf/platform/reboot_required.hpp>
#include <jetperf/store/job_cells.hpp>
#include <jetperf/jobs/point_rows.hpp>

namespace jetperf::jobs {

namespace {

// Spans a point holds before it stores them (a few MB at most).
constexpr std::size_t k_spans_held = 4096;

std::string store_failure(const std::exception& e) {
  return dynamic_cast<const store_error*>(&e) ? store::k_store_failure_prefix + std::string(e.what()) : e.what();
}

}  // namespace

// One run of a job on the runner thread: its plan, the per-point context, the board's guard and
// what its points came to, shared by the steps of run_job.
struct job_runner::job_run {
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
  /// Armed before the first point; puts the board back however the run ends, unless a reboot took it.
  std::optional<board_guard> board;

  std::int64_t id() const { return job.id; }
  std::int64_t size() const { return static_cast<std::int64_t>(plan->points().size()); }
};

job_runner::job_runner(store::database& db, store::job_store& jobs, job_queue& queue, job_journal& journal,
                       eta_estimator& eta, workload_registry& registry, event_hub& hub,
                       platform::board_settings* board, telemetry::sample_source* telemetry, runner_options options)
    : jobs_(jobs),
      reboots_(db),
      queue_(queue),
      journal_(journal),
      eta_(eta),
      registry_(registry),
      hub_(hub),
      board_(board),
      telemetry_(telemetry),
      options_(std::move(options)) {}

job_runner::~job_runner() { stop(); }

void job_runner::start() {
  resume_after_reboot();
  queue_.reopen();
  thread_ = std::thread([this] {
    name_this_thread(runner_thread_name);
    run_loop();
  });
}

void job_runner::stop() {
  queue_.stop();
  if (thread_.joinable()) thread_.join();
}

void job_runner::run_loop() {
  while (const auto id = queue_.take()) {
    try {
      auto job = jobs_.get(*id);
      if (job && job->state == job_state::queued) run_job(std::move(*job));
    } catch (const std::exception& e) {
      fail_job(*id, e);
    }
    queue_.release();
    return_free_memory();  // a job's networks, buffers and rows
  }
}

void job_runner::fail_job(std::int64_t id, const std::exception& e) {
  // The job's board guard has put the board back as the error left run_job.
  spdlog::error("job {}: {}", id, e.what());
  const auto why = store_failure(e);
  queue_.finish(id, job_state::failed, why);
  publish_job_event(hub_, id, "state", {{"id", id}, {"state", "failed"}, {"error", why}});
  publish_job_event(hub_, id, "end", {{"id", id}, {"state", "failed"}});
}

void job_runner::run_job(store::job_record job) {
  auto& w = registry_.get(job.kind);
  job_run run(std::move(job), w);
  // The stored spec, in its kind's current form, parsed and expanded once for the whole job.
  run.plan = w.plan(w.upgrade(store::spec_of(run.job), run.job.spec_version));
  if (!begin_run(run)) return;
  run.ctx = point_context_for(run);
  run.point_started_ns = monotonic_ns();
  run.progress.emplace(eta_.progress_of(w, *run.plan, static_cast<std::size_t>(run.first), run.point_started_ns));
  if (options_.on_running) options_.on_running(run.id());
  journal_.record_provenance(run.id());
  journal_.record_clocks(run.id());
  run_points(run);
  if (options_.on_running) options_.on_running(std::nullopt);
  learn_from(run);
  if (run.reboot) {
    if (reboot_for(run.job, run.reboot->first, run.reboot->second)) {
      // The reboot journal holds the job now; the start-up after the boot arms the board again.
      run.board->hand_off();
      return;
    }
    run.failed = -1;
    run.last_error = "rebooting into power mode " + std::to_string(run.reboot->second) + " failed";
  }
  end_run(run);
}

bool job_runner::begin_run(job_run& run) {
  const auto id = run.id();
  run.first = jobs_.count_points(id);
  // What an interrupted point stored of its spans goes before the job reads as running again.
  journal_.forget_spans_from(id, run.first);
  try {
    jobs_.set_state(id, job_state::running);
  } catch (const conflict& e) {
    // Cancelled between leaving the queue and starting: it does not run.
    spdlog::info("job {} not started: {}", id, e.what());
    return false;
  }
  publish_job_event(hub_, id, "state", {{"id", id}, {"state", "running"}});
  spdlog::info("job {} ({}) running: {} points, starting at {}", id, run.job.kind, run.size(), run.first);
  return true;
}

measure::point_context job_runner::point_context_for(job_run& run) {
  const auto id = run.id();
  measure::point_context ctx;
  ctx.job_id = id;
  ctx.cancel = &queue_.abort_flag();
  ctx.board = board_;
  ctx.telemetry = telemetry_;
  ctx.fidelity = options_.fidelity;
  ctx.sensor_cards = options_.sensor_cards;
  ctx.processes = options_.processes;
  ctx.cpu_usage = options_.cpu_usage;
  ctx.event = [this, id](const std::string& type, const record& data) {
    store::add_event(jobs_, id, type, data);
    publish_job_event(hub_, id, type, data);
  };
  ctx.timeline = [this, &run, id](measure::timeline_span s) {
    run.spans.push_back(store::stored_span(id, s.point_index, std::move(s.track), std::move(s.name), s.t_start_ns,
                                           s.t_end_ns, s.args));
    if (run.spans.size() >= k_spans_held) journal_.store_spans(id, run.spans);
  };
  return ctx;
}

void job_runner::run_points(job_run& run) {
  try {
    run.board.emplace(board_, run.id());
    for (auto i = run.first; i < run.size() && !queue_.aborting(); ++i)
      if (!run_point_of(run, i)) break;
  } catch (const std::exception& e) {
    // Outside a point (arming the board, storing a point or the progress): the job cannot go on.
    run.last_error = store_failure(e);
    run.failed = -1;
  }
}

bool job_runner::run_point_of(job_run& run, std::int64_t i) {
  const auto id = run.id();
  run.guard_reason = thermal_violation();
  if (!run.guard_reason.empty()) {
    spdlog::warn("job {}: {}", id, run.guard_reason);
    store::add_event(jobs_, id, "thermal_guard", {{"reason", run.guard_reason}});
    return false;
  }
  run.ctx.index = i;
  point_row p{i, "", run.plan->points()[static_cast<std::size_t>(i)], row()};
  std::int64_t window_start_ns = 0, window_end_ns = 0;
  std::optional<double> windows;
  const auto record_failure = [&](const std::string& what) {
    p.status = "failed";
    p.metrics = row(record{{"error", what}});
    run.last_error = what;
    spdlog::warn("job {} point {} failed: {}", id, p.index, what);
  };
  try {
    auto r = run.plan->run_point(run.ctx, static_cast<std::size_t>(i));
    // A point cut short by cancellation or shutdown is not a result.
    if (queue_.aborting()) return false;
    // A point that ran without its main metrics, or with a figure past a physical bound, says
    // why, never ok.
    if (r.status == "ok") measure::apply_physical_bounds(r.metrics, run.kind.columns(), measure::limits_of(run.ctx));
    p.status = r.status == "ok" ? settle_status(run.kind.columns(), r.metrics) : r.status;
    p.metrics = std::move(r.metrics);
    window_start_ns = r.t_start_ns;
    window_end_ns = r.t_end_ns;
    if (p.status == "ok" && r.cost) eta_.record_run(run.job.kind, *r.cost, r.run_s, r.run_cv);
    // Each window measured counts, the contended ones measured again included.
    if (const auto retries = p.metrics.get(measure::cols::retries)) windows = 1.0 + static_cast<double>(*retries);
  } catch (const platform::reboot_required& e) {
    if (queue_.aborting()) return false;
    if (board_ && allows_reboot(store::spec_of(run.job))) {
      run.reboot.emplace(i, e.power_mode());
      return false;
    }
    record_failure(e.what());
  } catch (const std::exception& e) {
    if (queue_.aborting()) return false;
    record_failure(e.what());
  }
  (p.status == "failed" ? run.failed : run.ok)++;
  jobs_.add_point(store::stored_point(id, i, p.status, p.params, p.metrics, window_start_ns, window_end_ns));
  journal_.record_point_spans(id, p, window_start_ns, window_end_ns, run.point_started_ns, monotonic_ns(), run.spans);
  run.point_started_ns = monotonic_ns();
  report_progress(run, i, p.status, run.point_started_ns, windows);
  return true;
}

void job_runner::report_progress(job_run& run, std::int64_t i, const std::string& status, std::int64_t now_ns,
                                 std::optional<double> windows) {
  const auto id = run.id();
  const double eta = run.progress->point_done(static_cast<std::size_t>(i), now_ns, windows);
  const auto basis = run.progress->basis();
  const auto done = i + 1;
  jobs_.set_progress(id, done, run.size(), run.progress->actual_s() + eta, basis);
  publish_job_event(hub_, id, "point", {{"id", id}, {"index", i}, {"status", status}});
  record progress{{"id", id}, {"done", done}, {"total", run.size()}, {"eta_s", eta}};
  if (const auto b = estimate_basis_record(basis)) progress.set("eta_basis", *b);
  publish_job_event(hub_, id, "progress", progress);
}

void job_runner::learn_from(job_run& run) {
  if (run.progress->actual_s() <= 0) return;
  // What the model learns is not worth the job's ending: a store that refuses it is logged.
  try {
    const auto ran = static_cast<std::size_t>(jobs_.count_points(run.id()));
    eta_.learn_job(run.job.kind, *run.progress, ran);
  } catch (const std::exception& e) {
    spdlog::warn("job {}: the cost model did not learn from it: {}", run.id(), e.what());
  }
}

void job_runner::end_run(job_run& run) {
  const auto id = run.id();
  // Read before restoring: putting the power mode back may reboot the board, and the shutdown
  // that follows must not turn a finished job into an interrupted one.
  const auto reason = queue_.reason();
  if (run.board) {
    const auto failure = run.board->restore();
    // A store failure before it (a point that could not be stored) stays the cause: it is what
    // a resume gets past, once there is room.
    if (!failure.empty() && !store::is_store_failure(run.last_error))
      run.last_error = store::is_store_failure(failure) ? failure : "restoring the board failed: " + failure;
  }
  // Counted over every point of the job, those of earlier runs of a resumed job included.
  const auto rows = point_rows(jobs_.points(id));
  const auto tally = tally_points(rows);
  const auto [final_state, error] = final_state_of(run, reason, tally);
  journal_.record_summary(id, run.kind, rows, tally);
  journal_.record_provenance(id);
  journal_.record_clocks(id);
  queue_.finish(id, final_state, error);
  spdlog::info("job {} {}", id, to_string(final_state));
  record state{{"id", id}, {"state", to_string(final_state)}};
  if (!error.empty()) state.set("error", error);
  publish_job_event(hub_, id, "state", state);
  publish_job_event(hub_, id, "end", {{"id", id}, {"state", to_string(final_state)}});
}

std::pair<job_state, std::string> job_runner::final_state_of(const job_run& run, abort_reason reason,
                                                             const point_tally& tally) const {
  if (reason == abort_reason::cancel) return {job_state::cancelled, "cancelled while running"};
  if (reason == abort_reason::shutdown)
    return {job_state::interrupted, "the daemon shut down while this job was running"};
  if (!run.guard_reason.empty()) return {job_state::failed, run.guard_reason};
  // A point that threw says why; points a kind returned failed (a command that exited non-zero)
  // are said by the tally ("2 of 2 points failed (most often: exit status 1)").
  if (run.failed < 0 || (run.ok == 0 && run.failed > 0))
    return {job_state::failed, run.last_error.empty() ? tally.shortfall() : run.last_error};
  // Succeeded only when every point has its main metrics: partial when some have, failed when none.
  if (!tally.shortfall().empty()) return {tally.ok > 0 ? job_state::partial : job_state::failed, tally.shortfall()};
  return {job_state::succeeded, ""};
}

bool job_runner::reboot_for(const store::job_record& job, std::int64_t index, std::int64_t power_mode) {
  const auto id = job.id;
  const std::string why = "waiting for the board to reboot into power mode " + std::to_string(power_mode) +
                          "; the job goes on at point " + std::to_string(index) + " after the boot";
  // Journaled before nvpmodel is answered YES: a real board goes down while nvpmodel runs.
  reboots_.record(id, index, power_mode);
  store::add_event(jobs_, id, "reboot", {{"index", index}, {"power_mode", power_mode}});
  jobs_.set_state(id, job_state::interrupted, why);
  queue_.set_rebooting(true);
  try {
    board_->reboot_into(power_mode);
  } catch (const std::exception& e) {
    if (queue_.reason() == abort_reason::shutdown) {
      // The shutdown of the reboot itself cut nvpmodel short (systemd stops the whole unit):
      // the journal stays, and the next start checks which mode the board booted in.
      spdlog::warn("job {}: nvpmodel ended with the shutdown ({}); the next start checks the mode", id, e.what());
      return true;
    }
    spdlog::error("job {}: rebooting into power mode {} failed: {}", id, power_mode, e.what());
    reboots_.clear(id);
    store::add_event(jobs_, id, "reboot_failed", {{"index", index}, {"power_mode", power_mode}, {"error", e.what()}});
    jobs_.set_state(id, job_state::running);
    queue_.set_rebooting(false);
    return false;
  }
  spdlog::warn("job {}: {}", id, why);
  publish_job_event(hub_, id, "state", {{"id", id}, {"state", "interrupted"}, {"error", why}, {"reboot", true}});
  return true;
}

void job_runner::resume_after_reboot() {
  const auto pending = reboots_.pending();
  if (!pending) return;
  const auto id = pending->job_id;
  reboots_.clear(id);
  // Only a job still waiting for its reboot goes on (one cancelled meanwhile stays as it is).
  const auto job = jobs_.get(id);
  if (!job || (job->state != job_state::interrupted && job->state != job_state::running)) return;
  // The settings from before the job, armed again: put back as `board` goes, unless the job goes on.
  auto board = board_guard::rearmed(board_, id);
  const auto mode = board.booted_in();
  const record data{{"index", pending->point_index}, {"power_mode", pending->power_mode}, {"booted_in", mode}};
  if (mode && *mode == pending->power_mode) {
    spdlog::info("job {}: the board booted in power mode {}; the job goes on at point {}", id, *mode,
                 pending->point_index);
    store::add_event(jobs_, id, "rebooted", data);
    jobs_.set_state(id, job_state::queued);
    publish_job_event(hub_, id, "state", {{"id", id}, {"state", "queued"}});
    // The job's next run arms the board (armed already: arming is idempotent) and restores it.
    board.hand_off();
    return;
  }
  // Not the boot the job asked for (the mode did not take, or jetperfd restarted without one):
  // the job stays resumable and the board goes back to how it was before the job.
  const std::string why = "the board came back in power mode " + (mode ? std::to_string(*mode) : std::string("unknown")) +
                          " instead of " + std::to_string(pending->power_mode) + " after the reboot";
  spdlog::error("job {}: {}", id, why);
  store::add_event(jobs_, id, "reboot_failed", data);
  jobs_.set_state(id, job_state::interrupted, why);
  publish_job_event(hub_, id, "state", {{"id", id}, {"state", "interrupted"}, {"error", why}});
}

std::string job_runner::thermal_violation() const {
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

}  // namespace jetperf::jobs
