#pragma once
// The runner thread: takes one job at a time from the queue (measurements on a board must not
// overlap) and runs its points from the first not yet stored, in order, with the board guarded,
// the pace estimated and what it records journaled, to the job's end or to a reboot the job
// asked for. A job whose reboot took goes on at its point after the next start.
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include <jetperf/measure/sensor_facts.hpp>
#include <jetperf/common/event_hub.hpp>
#include <jetperf/jobs/eta_estimator.hpp>
#include <jetperf/jobs/job_journal.hpp>
#include <jetperf/jobs/job_queue.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/jobs/point_tally.hpp>
#include <jetperf/jobs/workload_registry.hpp>
#include <jetperf/measure/point_context.hpp>
#include <jetperf/platform/board_settings.hpp>
#include <jetperf/platform/cpu_usage.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/job_store.hpp>
#include <jetperf/store/reboot_journal.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::jobs {

/// What the runner hands each point and watches besides the parts (job_service_options says more).
struct runner_options {
  double thermal_limit_c = 0;  ///< 0: no thermal guard
  std::function<void(std::optional<std::int64_t>)> on_running;
  const platform::board_fidelity* fidelity = nullptr;
  /// The board's sensor cards, for points that use the sensor's figures (null: none).
  const measure::sensor_card_book* sensor_cards = nullptr;
  platform::workload_processes* processes = nullptr;
  const platform::cpu_usage* cpu_usage = nullptr;
};

class job_runner {
 public:
  /// `board` and `telemetry` may be null. The parts outlive the runner.
  job_runner(store::database& db, store::job_store& jobs, job_queue& queue, job_journal& journal, eta_estimator& eta,
             workload_registry& registry, event_hub& hub, platform::board_settings* board,
             telemetry::sample_source* telemetry, runner_options options);
  ~job_runner();

  /// Resumes the job a reboot was for (queued again when the board booted in the mode it asked
  /// for, else left interrupted and the board restored), reopens the queue, starts the thread.
  void start();
  /// Stops the running job at its next safe point (stored interrupted) and waits for the thread.
  void stop();

 private:
  struct job_run;

  void run_loop();
  /// Storage failed under job `id` outside its points: records what it can, the runner goes on.
  void fail_job(std::int64_t id, const std::exception& e);
  /// Runs a job taken from the queue: its points from the first not yet stored, then its end.
  void run_job(store::job_record job);
  /// Marks the job running; false when it was cancelled meanwhile (it does not run).
  bool begin_run(job_run& run);
  /// What each of the job's points gets: cancellation, board, telemetry, events, timeline.
  measure::point_context point_context_for(job_run& run);
  /// Arms the board and runs the points until one stops the job; a failure outside a point
  /// (arming, storing) ends it failed.
  void run_points(job_run& run);
  /// Measures and stores point `i`; false when the job stops there (cancelled, too hot, a reboot).
  bool run_point_of(job_run& run, std::int64_t i);
  /// Point `i` ended at `now_ns` after measuring `windows` windows (nullopt: none): the ETA and
  /// its basis, stored and published.
  void report_progress(job_run& run, std::int64_t i, const std::string& status, std::int64_t now_ns,
                       std::optional<double> windows);
  /// Teaches the estimator how the kind's estimate compared with the time the points took.
  void learn_from(job_run& run);
  /// Puts the board back, settles the job's state and summary, and says so.
  void end_run(job_run& run);
  std::pair<job_state, std::string> final_state_of(const job_run& run, abort_reason reason,
                                                   const point_tally& tally) const;
  /// A point needs `power_mode`, which only a reboot applies, and the spec allows it: journals the
  /// job's point, marks it interrupted ("waiting for the board to reboot") and tells the board to
  /// reboot. No job runs after it in this process. False (journal undone) when the board refused.
  bool reboot_for(const store::job_record& job, std::int64_t index, std::int64_t power_mode);
  void resume_after_reboot();
  /// The thermal guard's verdict over the last second of telemetry: a reason, or "" when cool.
  std::string thermal_violation() const;

  store::job_store& jobs_;
  store::reboot_journal reboots_;
  job_queue& queue_;
  job_journal& journal_;
  eta_estimator& eta_;
  workload_registry& registry_;
  event_hub& hub_;
  platform::board_settings* board_;
  telemetry::sample_source* telemetry_;
  runner_options options_;
  std::thread thread_;
};

}  // namespace jetperf::jobs
