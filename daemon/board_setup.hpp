#pragma once
// Which board jetperfd serves (--board): a detected Jetson, a discrete NVIDIA GPU (NVML, no clock
// control), a plain host, or a simulated Jetson. Everything after selection sees only a sysfs
// root and tool paths, so a simulated board is driven exactly like a real one.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <jetperf/platform/board_controller.hpp>
#include <jetperf/platform/snapshot_journal.hpp>
#include <jetperf/sim/sim_board.hpp>
#include <jetperf/telemetry/nvml_sensor.hpp>

#include "daemon_config.hpp"

namespace jetperf::daemon {

/// The selected board and what it is served through.
struct board_selection {
  std::string name;        ///< "sim:orin-agx", "jetson", "dgpu", "host"
  bool simulated = false;
  std::string sysfs_root;  ///< host path prepended to board paths
  std::string tegrastats_path;
  std::string sim_dir;     ///< simulated boards: the board directory
  std::unique_ptr<sim::sim_board> sim;                 ///< running rail simulator, when simulated
  std::unique_ptr<telemetry::nvml_sensor> nvml;        ///< NVML when it answered the probe
  std::unique_ptr<platform::board_controller> controller;  ///< null: no clock control (dgpu, host)

  /// {"board","simulated","family"} for /v1/board and /v1/health.
  nlohmann::json identity() const;
};

/// Selects and prepares the board of `config`; `journal` (may be null) is the controller's
/// crash-safe snapshot journal; `on_reboot` (may be empty) is told when nvpmodel accepted a power
/// mode for the next boot (board_controller_options::on_reboot). Throws config_error for an
/// unknown sim profile or a --board that cannot be served (jetson on a non-Jetson); other
/// failures propagate.
board_selection select_board(const daemon_config& config, platform::snapshot_journal* journal,
                             std::function<void(std::int64_t)> on_reboot = {});

/// Restores the oldest open snapshot through `controller` and logs what was put back (or that it
/// waits for a reboot); returns whether one was restored. Throws what the controller throws.
bool restore_open_snapshot_logged(platform::board_controller& controller);

}  // namespace jetperf::daemon
