#pragma once
// The job service: what the API, the daemon and the tests call, composed of the runner's parts.
// Measurements on a board must not overlap, so exactly one job runs at a time (job_runner); the
// queue lives in SQLite so queued jobs survive restarts (job_queue); the board is armed and put
// back by one guard (board_guard); estimates learn from the board (eta_estimator); what a job
// records besides its points is job_journal's.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/event_hub.hpp>
#include <jetperf/jobs/eta_estimator.hpp>
#include <jetperf/jobs/job_journal.hpp>
#include <jetperf/jobs/job_queue.hpp>
#include <jetperf/jobs/job_runner.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/jobs/workload_registry.hpp>
#include <jetperf/platform/cpu_usage.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/job_store.hpp>

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
  /// The board's sensor cards (measure/sensor_facts.hpp); null: none.
  const measure::sensor_card_book* sensor_cards = nullptr;
  /// Told of the processes a job starts (a simulated board counts their load); may be null.
  platform::workload_processes* processes = nullptr;
  /// How busy the workload's cores were, for each window's contention; null: not measured.
  const platform::cpu_usage* cpu_usage = nullptr;
  /// Where a job's numbers come from (board, software versions, sensor, sampling), stored with
  /// the job when it starts and again when it ends (then with the sampling it achieved).
  std::function<cell()> provenance;
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

  /// Validates (kind, spec, tags), persists a queued job and wakes the runner. `spec` is the
  /// request's spec object's members (none: every default).
  /// Throws validation_error, unavailable (queue full or stopping).
  store::job_record submit(const std::string& kind, const record& spec, const std::vector<std::string>& tags);
  /// Validates without submitting: returns the normalized spec, point count, estimate and the
  /// power-mode switches that reboot the board ("reboots": [{from, to, restore}]).
  record dry_run(const std::string& kind, const record& spec) const;
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
  store::job_store jobs_;
  job_journal journal_;
  eta_estimator eta_;
  job_queue queue_;
  workload_registry& registry_;
  platform::board_settings* board_;
  // Last: its thread, stopped first, uses the parts above.
  job_runner runner_;
};

}  // namespace jetperf::jobs
