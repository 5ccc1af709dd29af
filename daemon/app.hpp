#pragma once
// jetperfd's components, owned in dependency order: each is built after (and destroyed before)
// the ones it uses. Board and telemetry helpers add their members at the marked places.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include <jetperf/api/router.hpp>
#include <jetperf/api/sampler_telemetry_view.hpp>
#include <jetperf/api/telemetry_feed.hpp>
#include <jetperf/common/event_hub.hpp>
#include <jetperf/jobs/job_service.hpp>
#include <jetperf/jobs/workload_registry.hpp>
#include <jetperf/platform/board_fidelity.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/sample_store.hpp>
#include <jetperf/store/snapshot_store.hpp>
#include <jetperf/store/timeline_store.hpp>
#include <jetperf/store/retention_store.hpp>
#include <jetperf/store/trace_attachment_store.hpp>
#include <jetperf/telemetry/sampler.hpp>

#include "stored_sensor_cards.hpp"
#include "board_setup.hpp"

#include "daemon_config.hpp"
#include "http/http_server.hpp"
#include "http/net.hpp"
#include "sd_notify.hpp"
#include "store_snapshot_journal.hpp"
#include "telemetry_setup.hpp"

namespace jetperf::daemon {

class retention_worker;
class storage_report;

class app {
 public:
  /// Reads the token, opens the database and builds every component; throws on failure
  /// (token_error for an unusable token file).
  explicit app(daemon_config config);
  ~app();
  app(const app&) = delete;
  app& operator=(const app&) = delete;

  /// Serves until SIGTERM or SIGINT (or a simulated board's reboot), then shuts down in order.
  /// Returns the exit status.
  int run();
  /// A simulated board was told to reboot: main() starts jetperfd again (its boot) after run().
  bool restart_requested() const { return restart_requested_; }

  /// --restore-only: puts the board back from a dirty snapshot and returns the exit status.
  static int restore_only(const daemon_config& config);

 private:
  // The constructor's steps, in order: each builds what the next ones use.
  void open_stores();
  /// After a job's reboot the board stays as the job left it; otherwise a dead run's open
  /// snapshot is restored.
  void resume_or_restore_board();
  void start_telemetry();
  void make_job_service();
  /// What the router serves from; logs the configuration's warnings and prepares the trace
  /// upload directory.
  api::services services_of();
  void make_retention_worker();
  void make_server(const std::string& upload_dir);
  void write_ready_file() const;
  void shutdown();
  /// board_controller_options::on_reboot: a real board is going down by itself; a simulated one
  /// boots when jetperfd starts again, so run() ends and main() re-executes the daemon.
  void on_reboot(std::int64_t power_mode);

  daemon_config config_;
  sd_notifier notifier_;
  std::string token_;
  /// Where command runs' cgroups go (empty: none); removed at shutdown where it is this daemon's own.
  std::string run_cgroup_parent_;
  std::unique_ptr<store::database> db_;
  event_hub hub_;
  jobs::workload_registry registry_;
  std::unique_ptr<store::snapshot_store> snapshots_;
  std::unique_ptr<store_snapshot_journal> journal_;
  std::unique_ptr<store::sample_store> samples_;
  std::unique_ptr<store::timeline_store> timeline_;
  std::unique_ptr<store::trace_attachment_store> attachments_;
  std::unique_ptr<store::retention_store> retention_;
  std::unique_ptr<storage_report> storage_report_;  ///< after retention_, which it reads
  std::unique_ptr<retention_worker> retention_worker_;  ///< after jobs_, which it asks
  board_selection board_;  ///< the served board (a running simulator when simulated)
  std::unique_ptr<sample_persister> persister_;
  std::unique_ptr<platform::board_fidelity> fidelity_;  ///< simulated boards only
  std::unique_ptr<stored_sensor_cards> sensor_cards_;
  platform::proc_cpu_usage cpu_usage_;  ///< /proc/stat: each window's contention
  std::unique_ptr<telemetry::sampler> sampler_;
  std::unique_ptr<api::sampler_telemetry_view> telemetry_view_;
  std::unique_ptr<api::telemetry_feed> feed_;
  std::unique_ptr<jobs::job_service> jobs_;
  std::unique_ptr<api::router> router_;
  std::unique_ptr<http_server> server_;
  net::io_context signals_ioc_;  ///< run() waits here for SIGTERM/SIGINT or a restart
  std::atomic<bool> restart_requested_{false};
};

}  // namespace jetperf::daemon
