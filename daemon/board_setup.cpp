#include "board_setup.hpp"

#include <utility>

#include <spdlog/spdlog.h>

#include <jetperf/api/board_views.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/platform/board_info.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/sim/board_profile.hpp>
#include <jetperf/sim/profile_file.hpp>

namespace jetperf::daemon {

namespace {

std::string profile_list() {
  std::string names;
  for (const auto& p : sim::board_profiles()) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

// NVML answers only where a discrete (or JetPack 7) NVIDIA GPU and its driver are present.
std::unique_ptr<telemetry::nvml_sensor> probe_nvml() {
  try {
    auto nvml = std::make_unique<telemetry::nvml_sensor>();
    if (!nvml->devices().empty()) return nvml;
    spdlog::debug("NVML loaded but reports no GPU");
  } catch (const std::exception& e) {
    spdlog::debug("no NVML: {}", e.what());
  }
  return nullptr;
}

using reboot_hook = std::function<void(std::int64_t)>;

platform::board_controller_options controller_options(const std::string& nvpmodel, reboot_hook on_reboot) {
  platform::board_controller_options o;
  o.nvpmodel_program = nvpmodel;
  o.nvpmodel_conf_path = "/etc/nvpmodel.conf";  // read through the sysfs root
  o.on_reboot = std::move(on_reboot);
  return o;
}

void serve_jetson(board_selection& b, const std::string& nvpmodel, platform::snapshot_journal* journal,
                  reboot_hook on_reboot) {
  b.controller = std::make_unique<platform::board_controller>(
      platform::sysfs_root(b.sysfs_root), controller_options(nvpmodel, std::move(on_reboot)), journal);
  const auto& info = b.controller->info();
  spdlog::info("board: {} ({}, {}, L4T {}) at sysfs root {}", info.model.empty() ? info.family : info.model,
               info.module, info.soc, info.l4t.empty() ? "?" : info.l4t, b.sysfs_root);
}

// A built-in profile by name, or a profile file (PATH.json): its board directory is named after
// the profile's own name.
sim::sim_board make_sim_board(const std::string& profile, const daemon_config& config) {
  const bool file = profile.size() > 5 && profile.compare(profile.size() - 5, 5, ".json") == 0;
  if (!file) {
    try {
      sim::find_profile(profile);
    } catch (const not_found&) {
      throw config_error("--board: unknown simulated board profile '" + profile + "'; known: " + profile_list());
    }
    return sim::sim_board::create(profile, config.sim_dir + "/" + profile);
  }
  sim::board_profile p;
  try {
    p = sim::read_profile_file(profile);
  } catch (const validation_error& e) {
    throw config_error(std::string("--board: ") + e.what());
  }
  const std::string dir = config.sim_dir + "/" + p.name;
  return sim::sim_board::create(std::move(p), dir);
}

void serve_sim(board_selection& b, const std::string& profile, const daemon_config& config,
               platform::snapshot_journal* journal, reboot_hook on_reboot) {
  b.sim = std::make_unique<sim::sim_board>(make_sim_board(profile, config));
  b.sim->start();
  const auto paths = b.sim->paths();
  b.name = "sim:" + profile;
  b.simulated = true;
  b.sim_dir = paths.dir;
  b.sysfs_root = paths.sysfs_root;
  // The board's own programs, unless --nvpmodel / --tegrastats name others explicitly (tests
  // put a failing nvpmodel in front of a simulated board).
  const daemon_config defaults;
  b.tegrastats_path =
      config.tegrastats_path != defaults.tegrastats_path ? config.tegrastats_path : paths.tegrastats_path;
  serve_jetson(b, config.nvpmodel_path != defaults.nvpmodel_path ? config.nvpmodel_path : paths.nvpmodel_path,
               journal, std::move(on_reboot));
}

}  // namespace

nlohmann::json board_selection::identity() const {
  nlohmann::json j{{"board", name}, {"simulated", simulated}};
  j["family"] = controller ? controller->info().family : name;
  if (simulated) j["sim_dir"] = sim_dir;
  return j;
}

board_selection select_board(const daemon_config& config, platform::snapshot_journal* journal,
                             std::function<void(std::int64_t)> on_reboot) {
  board_selection b;
  b.sysfs_root = config.sysfs_root;
  b.tegrastats_path = config.tegrastats_path;
  const std::string& kind = config.board;

  if (kind.rfind("sim:", 0) == 0) {
    serve_sim(b, kind.substr(4), config, journal, std::move(on_reboot));
    return b;
  }

  const platform::sysfs_root root(config.sysfs_root);
  // NVML is probed once: its answer decides dgpu and its sensor serves the telemetry.
  std::unique_ptr<telemetry::nvml_sensor> nvml;
  bool probed = false;
  auto probe = [&] {
    if (!probed) nvml = probe_nvml();
    probed = true;
    return nvml != nullptr;
  };
  const auto info = kind == "auto" || kind == "jetson" ? platform::detect_board(root, probe)
                                                       : platform::board_info{};
  if (kind == "jetson" || (kind == "auto" && info.jetson)) {
    if (!info.jetson) throw config_error("--board jetson: no Jetson found under sysfs root " + config.sysfs_root);
    b.name = "jetson";
    serve_jetson(b, config.nvpmodel_path, journal, std::move(on_reboot));
    if (probe()) b.nvml = std::move(nvml);  // JetPack 7 boards answer NVML too
    return b;
  }
  if (kind == "dgpu" || (kind == "auto" && probe())) {
    if (!probe()) throw config_error("--board dgpu: NVML reports no NVIDIA GPU");
    // No clock control on a discrete GPU: NVML telemetry only.
    b.name = "dgpu";
    b.nvml = std::move(nvml);
    spdlog::info("board: discrete NVIDIA GPU ({} device(s), NVML telemetry, no clock control)",
                 b.nvml->devices().size());
    return b;
  }
  if (kind == "host") {
    b.name = "host";
    spdlog::info("board: plain host (no clock control)");
    return b;
  }
  // auto on a machine with neither: serve a simulated Jetson so the whole API works.
  try {
    serve_sim(b, config.sim_profile, config, journal, std::move(on_reboot));
  } catch (const config_error&) {
    throw;
  } catch (const std::exception& e) {
    spdlog::warn("no Jetson board detected and the simulated board sim:{} could not be set up ({}); "
                 "serving without board control", config.sim_profile, e.what());
    board_selection host;
    host.name = "host";
    host.sysfs_root = config.sysfs_root;
    host.tegrastats_path = config.tegrastats_path;
    return host;
  }
  spdlog::info("no Jetson board detected: serving simulated board {} from {}", b.name, b.sim_dir);
  return b;
}

bool restore_open_snapshot_logged(platform::board_controller& controller) {
  if (!controller.restore_open_snapshot()) {
    if (auto mode = controller.reboot_pending())
      spdlog::warn("board: power mode {} takes effect at the next boot; the settings are restored after it", *mode);
    else
      spdlog::info("board: no open settings snapshot; nothing to restore");
    return false;
  }
  spdlog::warn("board: restored the settings saved before the last unfinished change: {}",
               api::current_settings_json(controller.current()).dump());
  return true;
}

}  // namespace jetperf::daemon
