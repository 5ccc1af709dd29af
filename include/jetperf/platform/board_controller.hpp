#pragma once
// The board as jobs and the API see it: detection + discovery + nvpmodel + clocks + snapshots.
// Every change is preceded by a journaled snapshot; apply() is all-or-nothing (a failure puts the
// pre-apply state back and rethrows). Thread-safe: the API and the job runner share one instance.
//
// Two baselines: what the user set through the API is what a job returns the board to (a job's
// snapshot is taken when it starts, API changes included); the board as it was before the first
// API change (at boot, or after the last restore) is what POST /v1/clocks/restore and the
// daemon's stop and start put back. While a job holds the board, API changes are refused here,
// under the same lock the job's start takes, so no change slips in between.
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include <jetperf/platform/board_description.hpp>
#include <jetperf/platform/board_discovery.hpp>
#include <jetperf/platform/board_info.hpp>
#include <jetperf/platform/board_request.hpp>
#include <jetperf/platform/board_settings.hpp>
#include <jetperf/platform/board_state.hpp>
#include <jetperf/platform/clock_control.hpp>
#include <jetperf/platform/clock_status.hpp>
#include <jetperf/platform/current_settings.hpp>
#include <jetperf/platform/mode_caps.hpp>
#include <jetperf/platform/power_mode_status.hpp>
#include <jetperf/platform/nvpmodel_conf.hpp>
#include <jetperf/platform/nvpmodel_tool.hpp>
#include <jetperf/platform/snapshot_journal.hpp>
#include <jetperf/platform/sysfs_root.hpp>

namespace jetperf::platform {

struct board_controller_options {
  std::string nvpmodel_program = "nvpmodel";  ///< path or name of the nvpmodel program
  std::chrono::milliseconds nvpmodel_timeout{30000};
  /// Board path of nvpmodel.conf; "" = /etc/nvpmodel.conf. Power modes are offered only when it parses.
  std::string nvpmodel_conf_path;
  /// Set by the caller that knows (CUDA/NVML probing lives outside platform); default: a GPU node exists.
  std::optional<bool> has_cuda_device;
  /// Reported in offered(); default: MemTotal of /proc/meminfo (Jetson memory is shared).
  std::optional<std::int64_t> gpu_memory_bytes;
  /// Asked when the machine is not a Jetson: true = a discrete NVIDIA GPU (family "dgpu").
  std::function<bool()> dgpu_probe;
  /// Called (with the controller's lock held) after nvpmodel accepted a power mode that takes
  /// effect at the next boot: a real board is going down; a simulated one boots when the daemon
  /// restarts, so the daemon restarts itself.
  std::function<void(std::int64_t power_mode)> on_reboot;
};

class board_controller : public board_settings {
 public:
  /// Detects and discovers the board under `root`. `journal` may be null (no crash-safe restore).
  board_controller(sysfs_root root, board_controller_options options, snapshot_journal* journal);

  board_offer offered() const override;
  void arm(std::int64_t job_id) override;
  /// The job path: applies the set values and returns the settings read back.
  board_setting apply(const board_setting& setting) override;
  /// apply() with a force flag, as a job would (no snapshot of its own: arm() first); a
  /// forced power mode that needs a reboot starts it. Returns current().
  current_settings apply_request(const board_request& request);
  current_settings current() const;
  board_setting read_back() const override;
  mode_caps caps_of(std::int64_t mode) const override;
  void restore() override;
  std::vector<sensor_chip_averaging> sensor_averaging() const override;
  std::vector<sensor_chip_averaging> set_sensor_samples(std::int64_t samples) override;
  void restore_sensor_averaging(const std::vector<sensor_chip_averaging>& chips) override;
  void reboot_into(std::int64_t power_mode) override;
  std::optional<std::int64_t> rearm(std::int64_t job_id) override;
  /// The mode nvpmodel was told to apply at the next boot by this process, if any. While one is
  /// pending nothing restores the board: the open snapshot is restored after the boot.
  std::optional<std::int64_t> reboot_pending() const;

  /// Start-up and `jetperfd --restore-only`: restores the oldest open snapshot, closes all.
  /// Returns whether one was restored. Keeps it open (returns false) when the power mode can
  /// only go back through a reboot, which it then starts, and while a reboot is pending.
  bool restore_open_snapshot();
  /// GET /v1/board: identity, modes, frequency lists, cores, fan and the paths in use.
  board_description describe() const;
  /// GET /v1/power-mode; throws unavailable without nvpmodel.
  power_mode_status power_mode() const;
  /// PUT /v1/power-mode. Snapshots first (reason "api") before the first API change; throws
  /// conflict while a job holds the board.
  power_mode_status set_power_mode(int id, bool force);
  /// GET /v1/clocks: current() plus whether anything waits to be put back and the clocks' state.
  clock_status clocks() const;
  /// The frequencies the board offers, every power mode's.
  clock_offer clock_frequencies() const;
  /// Those under the caps of the mode in effect: what PUT /v1/clocks may set now, its "min" and
  /// "max" (and GET /v1/clocks' `available`).
  clock_offer clock_limits() const;
  /// PUT /v1/clocks. Checks every clock, offered and under the cap of the mode in effect (errors
  /// name gpu, cpu, emc), then snapshots first, as
  /// set_power_mode; throws conflict while a job holds the board.
  current_settings set_clocks(const clock_request& request);
  /// POST /v1/clocks/restore: the board as it was before the first API change (boot-time
  /// settings). Throws conflict while a job holds the board.
  void restore_clocks();
  /// The current state as it would be journaled.
  board_state snapshot() const;

  const board_info& info() const { return info_; }
  const std::optional<nvpmodel_conf>& conf() const { return conf_; }

 private:
  std::optional<int> query_mode() const;
  /// The mode in effect, asked of nvpmodel; nullptr without nvpmodel.conf or a mode it names.
  const nvpmodel_mode* mode_now_locked() const;
  board_state capture() const;
  /// Puts `state` back; returns true when its power mode waits for a reboot (clocks untouched).
  bool restore_state(const board_state& state);
  /// Records a power mode nvpmodel applies at the next boot and tells options_.on_reboot.
  void reboot_started(std::int64_t power_mode);
  void arm_locked(std::int64_t job_id);
  /// Before an API change: refuses it while a job holds the board; journals the board as it is
  /// before the first one.
  void api_change_locked();
  /// Validates the whole request before the first write; on a failed write puts the board back.
  current_settings apply_locked(const board_request& request);
  /// Throws validation_error(power_mode) when `mode` is not in nvpmodel.conf (or there is none).
  void check_power_mode(int mode) const;
  current_settings current_locked() const;
  power_mode_status power_mode_locked() const;
  std::vector<power_mode_description> describe_modes() const;
  cpu_description describe_cpu() const;

  sysfs_root root_;
  board_controller_options options_;
  snapshot_journal* journal_;
  board_info info_;
  std::optional<nvpmodel_conf> conf_;
  std::optional<nvpmodel_tool> tool_;
  mutable clock_control clocks_;
  std::vector<std::string> sensor_dirs_;  ///< INA3221 hwmon folders with an averaging count
  std::optional<board_state> armed_;  ///< a job's: the board when it started
  std::int64_t armed_job_ = 0;
  std::optional<board_state> api_baseline_;  ///< the board before the first API change
  std::optional<std::int64_t> reboot_pending_;
  mutable std::optional<int> last_mode_;  ///< the power mode nvpmodel reported last
  mutable std::recursive_mutex mutex_;
};

}  // namespace jetperf::platform
