#include "app.hpp"

#include <unistd.h>

#include <csignal>

#include <spdlog/spdlog.h>

#include <jetperf/api/sensor_card_view.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/config.hpp>
#include <jetperf/platform/run_cgroup.hpp>
#include <jetperf/sim/sim_fidelity.hpp>
#include <jetperf/store/reboot_journal.hpp>
#include <jetperf/store/cell_json.hpp>

#include "atomic_file.hpp"
#include "command_setup.hpp"
#include "database_file.hpp"
#include "exposure.hpp"
#include "http/net.hpp"
#include "kinds.hpp"
#include "provenance.hpp"
#include "retention_worker.hpp"
#include "storage_report.hpp"
#include "token_file.hpp"
#include "trace_uploads.hpp"

namespace jetperf::daemon {

namespace {

http_server_options server_options(const daemon_config& c) {
  http_server_options o;
  o.host = c.listen_host;
  o.port = c.listen_port;
  o.threads = c.threads;
  o.max_connections = c.max_connections;
  o.max_streams = c.max_streams;
  o.max_streams_per_address = c.max_streams_per_address;
  o.limits.upload_limit = c.max_trace_upload_mb << 20;
  return o;
}

// The lab's name for the board: the configured one, else this machine's host name.
std::string board_name_of(const daemon_config& c) {
  if (!c.board_name.empty()) return c.board_name;
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) == 0 && name[0]) return name;
  return "jetson";
}

telemetry::prometheus_build_info build_info_of(const board_selection& board, const std::string& board_name) {
  telemetry::prometheus_build_info b;
  b.version = JETPERF_VERSION;
  b.board = board_name;
  b.simulated = board.simulated;
  if (board.controller) {
    const auto& info = board.controller->info();
    b.model = info.module.empty() ? info.family : info.module;
    b.l4t = info.l4t;
  } else {
    b.model = board.name;
  }
  return b;
}

// Where the driver states no update period (L4T r32), the provenance takes the board's card's
// for the total power channel, when it is not stale.
void put_card_period(nlohmann::json& provenance, const std::optional<nlohmann::json>& card) {
  auto sensor = provenance.find("power_sensor");
  if (sensor == provenance.end() || !(*sensor)["update_period_s"].is_null() || !card || card->value("stale", true)) return;
  for (const auto& c : card->value("channels", nlohmann::json::array())) {
    const auto ms = c.find("update_period_ms");
    if (c.value("channel", std::string()) != "power.total" || ms == c.end() || !ms->is_number()) continue;
    (*sensor)["update_period_s"] = ms->get<double>() * 1e-3;
    (*sensor)["update_period_source"] = "card";
  }
}

}  // namespace

app::app(daemon_config config)
    : config_(std::move(config)), notifier_(sd_notifier::from_environment()) {
  spdlog::info("jetperfd {} starting", JETPERF_VERSION);
  token_ = load_or_create_token(config_.token_file);
  spdlog::info("token file: {}", config_.token_file);
  db_ = open_private_database(config_.db_path);
  spdlog::info("database: {} (schema version {})", config_.db_path, db_->schema_version());

  const auto command_policy = command_policy_of(config_);
  run_cgroup_parent_ = command_policy.cgroup_parent;
  register_kinds(registry_, command_policy);
  open_stores();
  board_ = select_board(config_, journal_.get(), [this](std::int64_t mode) { on_reboot(mode); });
  resume_or_restore_board();
  start_telemetry();
  make_job_service();
  api::services services = services_of();
  const auto upload_dir = services.attachment_dir;
  router_ = std::make_unique<api::router>(std::move(services));
  make_retention_worker();
  make_server(upload_dir);
}

void app::open_stores() {
  snapshots_ = std::make_unique<store::snapshot_store>(*db_);
  journal_ = std::make_unique<store_snapshot_journal>(*snapshots_);
  samples_ = std::make_unique<store::sample_store>(*db_);
  timeline_ = std::make_unique<store::timeline_store>(*db_);
  attachments_ = std::make_unique<store::trace_attachment_store>(*db_);
  retention_ = std::make_unique<store::retention_store>(*db_);
}

void app::resume_or_restore_board() {
  if (auto resume = store::reboot_journal(*db_).pending()) {
    // The boot a job asked for: its snapshot stays open and armed until the job ends.
    spdlog::info("board: job {} rebooted the board for power mode {}; it goes on at point {} and restores "
                 "the board when it ends",
                 resume->job_id, resume->power_mode, resume->point_index);
  } else if (board_.controller) {
    // A previous run that died mid-change left its snapshot open: put the board back first.
    try {
      restore_open_snapshot_logged(*board_.controller);
    } catch (const std::exception& e) {
      spdlog::error("board: restoring the previous run's settings failed (the snapshot stays open): {}",
                    e.what());
    }
  }
}

void app::make_job_service() {
  jobs::job_service_options job_options;
  job_options.thermal_limit_c = config_.thermal_limit_c;
  telemetry::sampler* sampler = sampler_.get();
  job_options.on_running = [sampler](std::optional<std::int64_t> id) {
    if (id) {
      sampler->set_job(*id);
    } else {
      sampler->clear_job();
    }
  };
  if (board_.sim && board_.sim->simulator()) fidelity_ = std::make_unique<sim::sim_fidelity>(*board_.sim->simulator());
  job_options.fidelity = fidelity_.get();
  sensor_cards_ = std::make_unique<stored_sensor_cards>(jobs_, board_.controller.get());
  job_options.sensor_cards = sensor_cards_.get();
  if (board_.sim) job_options.processes = board_.sim->simulator();
  job_options.cpu_usage = &cpu_usage_;
  const platform::board_fidelity* fidelity = fidelity_.get();
  job_options.provenance = [this, sampler, fidelity] {
    auto j = job_provenance(board_, sampler, fidelity);
    // The sensor card in force when the job ran (null before any): what its energy figures rest on.
    std::optional<nlohmann::json> card;
    if (jobs_ && board_.controller)
      card = api::latest_sensor_card(*jobs_, api::sensor_card_board_of(*board_.controller), wall_ns());
    j["sensor_card"] = card ? *card : nlohmann::json();
    put_card_period(j, card);
    return cell_of(j);
  };
  // Estimates learn from the runs of this board only.
  job_options.cost_scope = board_.name;
  jobs_ = std::make_unique<jobs::job_service>(*db_, registry_, hub_, board_.controller.get(), sampler_.get(),
                                              std::move(job_options));
}

api::services app::services_of() {
  api::services services;
  services.jobs = jobs_.get();
  services.hub = &hub_;
  services.auth.token = token_;
  services.auth.require_for_reads = config_.require_token_for_reads;
  services.auth.allowed_hosts = allowed_hosts(config_);
  for (const auto& w : startup_warnings(config_)) spdlog::warn("{}", w);
  services.board = board_.controller.get();
  const std::string board_name = board_name_of(config_);
  nlohmann::json identity = board_.identity();
  services.board_identity = [identity] { return identity; };
  services.build_info = build_info_of(board_, board_name);
  // What `jetperf fleet status` prints per board, from one request.
  identity["board_name"] = board_name;
  identity["model"] = services.build_info->model;
  identity["l4t"] = services.build_info->l4t;
  services.health_extra = [identity] { return identity; };
  services.telemetry = telemetry_view_.get();
  services.samples = samples_.get();
  services.timeline = timeline_.get();
  services.attachments = attachments_.get();
  services.attachment_dir = prepare_trace_dir(config_);
  services.attachment_max_per_job = config_.max_trace_attachments;
  services.attachment_max_total_bytes = static_cast<std::int64_t>(config_.max_trace_disk_mb << 20);
  services.attachment_max_bytes = static_cast<std::int64_t>(config_.max_trace_upload_mb << 20);
  services.retention = retention_.get();
  storage_report_ = std::make_unique<storage_report>(storage_status_of(config_, *retention_), k_storage_report_period);
  const storage_report* storage = storage_report_.get();
  services.storage = [storage] { return storage->latest(); };
  services.web_root = config_.web_root;
  services.javascript_dir = config_.javascript_dir;
  return services;
}

void app::make_retention_worker() {
  const store::retention_policy policy{config_.retention_full_days, config_.retention_days};
  const jobs::job_service* service = jobs_.get();
  retention_worker_ = std::make_unique<retention_worker>(
      store::retention_pass(*db_, *samples_, *retention_, policy), retention_worker::period_for(policy),
      [service] { return service->running().has_value() || service->queued_count() > 0; });
}

void app::make_server(const std::string& upload_dir) {
  const api::router* router = router_.get();
  request_handlers handlers;
  handlers.handle = [router](const api::http_request& request) { return router->handle(request); };
  handlers.authenticated = [router](const api::http_request& request) { return router->authenticated(request); };
  handlers.blocking = [router](const api::http_request& request) { return router->may_wait(request); };
  handlers.body_to_file = [router](const api::http_request& request) { return router->body_to_file(request); };
  handlers.admit = [router](const api::http_request& request) { return router->admit(request); };
  auto options = server_options(config_);
  options.upload_dir = upload_dir;
  const store::trace_attachment_store* attachments = attachments_.get();
  options.uploads = std::make_shared<upload_space>(
      config_.max_trace_disk_mb << 20,
      [attachments] { return static_cast<std::uint64_t>(attachments->total_bytes()); }, upload_dir);
  server_ = std::make_unique<http_server>(std::move(options), std::move(handlers));
}

app::~app() { shutdown(); }

void app::start_telemetry() {
  std::optional<double> update_s;
  auto sensors = make_sensors(board_, &update_s);
  const auto sampling = sampler_config_of(config_, update_s);
  sampler_ = std::make_unique<telemetry::sampler>(std::move(sensors), sampling);
  const auto channels = sampler_->channels();
  persister_ = std::make_unique<sample_persister>(
      *samples_, channels, static_cast<std::int64_t>(config_.history_retention_h) * 3600 * 1'000'000'000);
  sample_persister* persister = persister_.get();
  sampler_->set_sink([persister](std::int64_t job_id, const std::vector<telemetry::sample>& batch) {
    (*persister)(job_id, batch);
  });
  sampler_->set_archive(persister);
  sampler_->start();
  spdlog::info("telemetry: {} channels every {} ms with a job, {} ms without (history every {} ms, kept {} h)",
               channels.size(), config_.sample_period_ms, sampling.idle_period_ns / 1'000'000,
               config_.history_period_ms, config_.history_retention_h);
  telemetry_view_ = std::make_unique<api::sampler_telemetry_view>(*sampler_);
  feed_ = std::make_unique<api::telemetry_feed>(*telemetry_view_, hub_);
  feed_->start();
}

void app::on_reboot(std::int64_t power_mode) {
  if (!board_.simulated) {
    spdlog::warn("nvpmodel reboots the board into power mode {}; systemd starts jetperfd after the boot",
                 power_mode);
    return;
  }
  // Called from the controller (job runner, API or this constructor); stop() is thread-safe and
  // makes a later run() return at once.
  restart_requested_ = true;
  signals_ioc_.stop();
}

int app::run() {
  // A file size limit (ulimit -f) makes writes past it fail with EFBIG, answered as such; its
  // signal's default action would end the daemon instead.
  std::signal(SIGXFSZ, SIG_IGN);
  // The signal set exists before any thread starts, so no thread sees SIGTERM's default action.
  net::signal_set signals(signals_ioc_, SIGINT, SIGTERM);
  int received = 0;
  signals.async_wait([&](const boost::system::error_code& ec, int signo) {
    if (!ec) received = signo;
  });

  // A reboot started while building (restoring a mode that needs one) ends this run before it serves.
  if (!restart_requested_) {
    server_->start();
    spdlog::info("listening on {}", server_->local_address());
    jobs_->start();
    retention_worker_->start();
    write_ready_file();
    notifier_.notify("READY=1\nSTATUS=listening on " + server_->local_address());
    signals_ioc_.run();
  }
  if (restart_requested_)
    spdlog::warn("the simulated board reboots: shutting down to start again");
  else
    spdlog::info("received {}; shutting down", received == SIGINT ? "SIGINT" : "SIGTERM");
  notifier_.notify("STOPPING=1\nSTATUS=shutting down");
  shutdown();
  spdlog::info("stopped");
  spdlog::default_logger()->flush();
  return 0;
}

void app::shutdown() {
  // Each thread stops before what it uses goes. The producers of event-stream frames (the job
  // runner, the telemetry feed) post into the HTTP io_context, so they stop before the server;
  // the server's threads call the router, which calls the job service; the sampler feeds the
  // persister and reads the board.
  if (server_) server_->stop_accepting();
  // The running job stops at its next safe point and is stored as interrupted.
  if (retention_worker_) retention_worker_->stop();
  if (jobs_) jobs_->stop();
  if (feed_) feed_->stop();
  // Closes the remaining sessions and SSE streams, then joins the io threads.
  if (server_) server_->stop();
  server_.reset();
  router_.reset();
  retention_worker_.reset();
  jobs_.reset();
  // The runs' group this daemon made (none is running now) goes with it.
  if (!run_cgroup_parent_.empty()) platform::remove_run_cgroup_parent(run_cgroup_parent_);
  run_cgroup_parent_.clear();
  feed_.reset();
  telemetry_view_.reset();
  // stop() hands every pending sample to the sink, so all of them reach the database.
  if (sampler_) sampler_->stop();
  sampler_.reset();
  persister_.reset();
  if (board_.controller) {
    // Settings changed through the API (not by a job) stay until restored; leave the board as found.
    try {
      restore_open_snapshot_logged(*board_.controller);
    } catch (const std::exception& e) {
      spdlog::error("board: restoring settings at shutdown failed (the snapshot stays open): {}", e.what());
    }
  }
  fidelity_.reset();
  board_ = board_selection{};
  journal_.reset();
  snapshots_.reset();
  samples_.reset();
  storage_report_.reset();
  retention_.reset();
  db_.reset();
}

void app::write_ready_file() const {
  if (config_.ready_file.empty()) return;
  write_file_atomically(config_.ready_file, server_->local_address() + "\n", 0644);
}

int app::restore_only(const daemon_config& config) {
  try {
    auto db = open_private_database(config.db_path);
    store::snapshot_store snapshots(*db);
    store_snapshot_journal journal(snapshots);
    auto board = select_board(config, &journal);
    if (!board.controller) {
      spdlog::info("restore-only: board {} has no settings control; nothing to restore", board.name);
      return 0;
    }
    // Stopping for a reboot a job asked for: restoring now would undo the mode it reboots into.
    if (auto resume = store::reboot_journal(*db).pending()) {
      spdlog::info("restore-only: job {} waits for the board to boot in power mode {}; nothing restored",
                   resume->job_id, resume->power_mode);
      return 0;
    }
    restore_open_snapshot_logged(*board.controller);
    return 0;
  } catch (const std::exception& e) {
    spdlog::critical("restore-only failed: {}", e.what());
    return 1;
  }
}

}  // namespace jetperf::daemon
