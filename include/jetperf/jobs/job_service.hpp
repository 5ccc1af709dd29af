#pragma once
// The job queue and its single runner thread. Measurements on a board must not overlap, so
// exactly one job runs at a time; the queue lives in SQLite so queued jobs survive restarts.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/common/event_hub.hpp>
#include <jetperf/jobs/cost_model.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/jobs/point_tally.hpp>
#include <jetperf/jobs/workload_registry.hpp>
#include <jetperf/platform/cpu_usage.hpp>
#include <jetperf/store/job_store.hpp>
#include <jetperf/store/timeline_store.hpp>
#include <jetperf/store/reboot_journal.hpp>

namespace jetperf::jobs {

struct job_service_options {
  std::size_t max_queued = 1000;  ///< submissions beyond this get 503
  /// Thermal guard: a job stops (failed, with the reason) when a temperature channel of the
  /// telemetry reads above this many degrees Celsius. 0 disables the guard.
  double thermal_limit_c = 0;
  /// Called on the runner thread when a job starts running (its id) and when it ends (nullopt),
  /// e.g. to attach the sampler's full-rate stream to the job.
  std::function<void(std::optional<std::int64_t>)> on_running;
  /// What the board's numbers stand for (simulated boards); null on a real board.
  const platform::board_fidelity* fidelity = nullptr;
  /// Told of the processes a job starts (a simulated board counts their load); may be null.
  platform::workload_processes* processes = nullptr;
  /// How busy the workload's cores were, for each window's contention; null: not measured.
  const platform::cpu_usage* cpu_usage = nullptr;
  /// Where a job's numbers come from (board, software versions, sensor, sampling), stored with
  /// the job when it starts and again when it ends (then with the sampling it achieved).
  std::function<nlohmann::json()> provenance;
  /// The board the cost model's history belongs to (its name); estimates learn per scope.
  std::string cost_scope = "default";
};

class job_service {
 public:
  /// `board` and `telemetry` may be null.
  job_service(store::database& db, workload_registry& registry, event_hub& hub,
              platform::board_settings* board, telemetry::sample_source* telemetry,
              job_service_options options = {});
  ~job_service();

  /// Resumes the job a reboot was for (store::reboot_journal: queued again when the board booted
  /// in the mode it asked for, else left interrupted and the board restored), marks jobs left
  /// running by a dead process as interrupted, then starts the runner.
  void start();
  /// Interrupts the running job at its next safe point, waits for the runner to end.
  /// The running job is stored as `interrupted`; queued jobs stay queued.
  void stop();

  /// Validates (kind, spec, tags), persists a queued job and wakes the runner.
  /// Throws validation_error, unavailable (queue full or stopping).
  store::job_record submit(const std::string& kind, const nlohmann::json& spec,
                           const std::vector<std::string>& tags);
  /// Validates without submitting: returns the normalized spec, point count, estimate and the
  /// power-mode switches that reboot the board ("reboots": [{from, to, restore}]).
  nlohmann::json dry_run(const std::string& kind, const nlohmann::json& spec) const;
  /// Cancels a queued or running job. Throws not_found, conflict (already finished).
  store::job_record cancel(std::int64_t id);
  /// Queues an interrupted job again, or one that failed because the database could not be
  /// written; it resumes after its last stored point. Throws not_found, conflict (neither),
  /// unavailable (its failure is not stored yet).
  store::job_record resume(std::int64_t id);
  /// Throws not_found.
  store::job_record get(std::int64_t id) const;
  std::vector<store::job_record> list(const store::job_filter& filter, std::int64_t* total) const;
  std::vector<store::point_record> points(std::int64_t id) const;
  /// Id of the running job, if any.
  std::optional<std::int64_t> running() const;
  std::size_t queued_count() const;
  /// Workload of a kind (for result columns and summaries).
  const workload_registry& registry() const { return registry_; }


 private:
  struct job_run;
  enum class abort_reason { none, cancel, shutdown };

  void run_loop();
  /// Runs a job taken from the queue: its points from the first not yet stored, then its end.
  void run_job(store::job_record job);
  /// Marks the job running; false when it was cancelled meanwhile (it does not run).
  bool begin_run(job_run& run);
  /// What each of the job's points gets: cancellation, board, telemetry, events, timeline.
  measure::point_context point_context_for(job_run& run);
  /// Measures and stores point `i`; false when the job stops there (cancelled, too hot, a reboot).
  bool run_point_of(job_run& run, std::int64_t i);
  void report_progress(job_run& run, std::int64_t i, const std::string& status, std::int64_t now_ns);
  /// Teaches the cost model how the kind's estimate compared with the time the points took.
  void learn_from(job_run& run);
  /// Puts the board back, settles the job's state and summary, and says so.
  void end_run(job_run& run);
  std::pair<job_state, std::string> final_state_of(const job_run& run, abort_reason reason,
                                                   const point_tally& tally) const;
  void store_summary(const job_run& run, const std::vector<store::point_record>& stored, const point_tally& tally);
  void publish(std::int64_t id, const std::string& event, const nlohmann::json& data);
  /// A point needs `power_mode`, which only a reboot applies, and the spec allows it: journals the
  /// job's point, marks it interrupted ("waiting for the board to reboot") and tells the board to
  /// reboot. No job runs after it in this process. False (journal undone) when the board refused.
  bool reboot_for(const store::job_record& job, std::int64_t index, std::int64_t power_mode);
  void resume_after_reboot();
  /// The thermal guard's verdict over the last second of telemetry: a reason, or "" when cool.
  std::string thermal_violation() const;
  /// Stores CLOCK_REALTIME against CLOCK_MONOTONIC on the job's timeline (track "clocks"), at its
  /// start and end: what maps a trace stamped in wall-clock time (Kineto) onto the job's samples,
  /// and how far the two clocks drifted meanwhile (NTP slews realtime).
  void record_clocks(std::int64_t id);
  /// Stores options_.provenance() with job `id`; a failure is logged, never fatal to the job.
  void record_provenance(std::int64_t id);
  /// Stores the state a job ended in; when the database refuses it (a full disk), keeps it in
  /// memory, where reads see it, and retries it (save_unsaved_states) until it is stored.
  void save_final_state(std::int64_t id, job_state state, const std::string& error);
  /// Retries the states kept in memory; mutex_ held.
  void save_unsaved_states();
  /// A job as reads must see it: its unsaved final state, if any; mutex_ held.
  void overlay_unsaved(store::job_record& job) const;
  /// Seconds each point will take (the kind's estimate over the cost model's run times).
  /// Stores a finished point's spans: its own (points), its measurement window (windows) and
  /// what the workload recorded (`spans`, emptied).
  /// Stores the spans and empties the vector; a failure is logged, not thrown.
  void store_spans(std::int64_t id, std::vector<store::timeline_span>& spans);
  void record_point_spans(std::int64_t id, const store::point_record& p, std::int64_t started_ns,
                          std::int64_t ended_ns, std::vector<store::timeline_span>& spans);
  std::vector<double> estimate_points(const workload& w, const job_plan& plan) const;
  /// The whole job's estimate: its points' sum, scaled by how past jobs of the kind compared.
  double estimate_job(const workload& w, const job_plan& plan) const;

  store::database& db_;
  store::job_store jobs_;
  store::timeline_store timeline_;
  store::reboot_journal reboots_;
  store::cost_store costs_;
  mutable cost_model model_;  // learns on the runner, read by submissions
  workload_registry& registry_;
  event_hub& hub_;
  platform::board_settings* board_;
  telemetry::sample_source* telemetry_;
  job_service_options options_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::int64_t> queue_;
  std::optional<std::int64_t> running_;
  // Set to end the running job at its next safe point; abort_reason_ says why.
  std::atomic<bool> abort_{false};
  abort_reason abort_reason_ = abort_reason::none;  // guarded by mutex_
  std::condition_variable finished_;                 // a job left the running slot
  bool stopping_ = false;
  bool rebooting_ = false;  // a job's reboot is under way: nothing more runs in this process
  // Final states the database refused, by job: {state, error}; guarded by mutex_.
  std::map<std::int64_t, std::pair<job_state, std::string>> unsaved_;
  std::thread runner_;
};

}  // namespace jetperf::jobs
