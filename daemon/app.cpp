#include "app.hpp"

#include <csignal>

#include <spdlog/spdlog.h>

#include <jetperf/config.hpp>
#include <jetperf/jobs/idle_workload.hpp>

#include "atomic_file.hpp"
#include "http/net.hpp"
#include "token_file.hpp"

namespace jetperf::daemon {

namespace {

std::unique_ptr<store::database> open_database(const std::string& path) {
  if (path != ":memory:") ensure_directory(parent_directory(path), 0750);
  return std::make_unique<store::database>(path);
}

http_server_options server_options(const daemon_config& c) {
  http_server_options o;
  o.host = c.listen_host;
  o.port = c.listen_port;
  o.threads = c.threads;
  o.max_connections = c.max_connections;
  return o;
}

}  // namespace

app::app(daemon_config config)
    : config_(std::move(config)), notifier_(sd_notifier::from_environment()) {
  spdlog::info("jetperfd {} starting", JETPERF_VERSION);
  token_ = load_or_create_token(config_.token_file);
  spdlog::info("token file: {}", config_.token_file);
  db_ = open_database(config_.db_path);
  spdlog::info("database: {} (schema version {})", config_.db_path, db_->schema_version());

  registry_.add(jobs::make_idle_workload());

  jobs_ = std::make_unique<jobs::job_service>(*db_, registry_, hub_, /*board=*/nullptr,
                                              /*telemetry=*/nullptr);

  api::services services;
  services.jobs = jobs_.get();
  services.hub = &hub_;
  services.auth.token = token_;
  services.auth.require_for_reads = config_.require_token_for_reads;
  // health_extra: the board helper reports the detected board here.
  router_ = std::make_unique<api::router>(std::move(services));

  const api::router* router = router_.get();
  server_ = std::make_unique<http_server>(
      server_options(config_),
      [router](const api::http_request& request) { return router->handle(request); });
}

app::~app() { shutdown(); }

int app::run() {
  // The signal set exists before any thread starts, so no thread sees SIGTERM's default action.
  net::io_context signals_ioc;
  net::signal_set signals(signals_ioc, SIGINT, SIGTERM);
  int received = 0;
  signals.async_wait([&](const boost::system::error_code& ec, int signo) {
    if (!ec) received = signo;
  });

  server_->start();
  spdlog::info("listening on {}", server_->local_address());
  jobs_->start();
  write_ready_file();
  notifier_.notify("READY=1\nSTATUS=listening on " + server_->local_address());

  signals_ioc.run();
  spdlog::info("received {}; shutting down", received == SIGINT ? "SIGINT" : "SIGTERM");
  notifier_.notify("STOPPING=1\nSTATUS=shutting down");
  shutdown();
  spdlog::info("stopped");
  spdlog::default_logger()->flush();
  return 0;
}

void app::shutdown() {
  if (server_) server_->stop_accepting();
  // The running job stops at its next safe point and is stored as interrupted.
  if (jobs_) jobs_->stop();
  // Closes the remaining sessions and SSE streams, then joins the io threads.
  if (server_) server_->stop();
  server_.reset();
  router_.reset();
  jobs_.reset();
  db_.reset();
}

void app::write_ready_file() const {
  if (config_.ready_file.empty()) return;
  write_file_atomically(config_.ready_file, server_->local_address() + "\n", 0644);
}

int app::restore_only(const daemon_config& config) {
  // Board snapshots are restored by the board helper's code, wired here when it lands; until
  // then no component changes board settings, so there is never anything to restore.
  spdlog::info("restore-only: no board settings component in this build; nothing to restore");
  return 0;
}

}  // namespace jetperf::daemon
