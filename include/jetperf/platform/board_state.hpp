#pragma once
// A snapshot of everything jetperf may change on a board (journaled in SQLite as JSON by store/):
// power mode, GPU min/max/governor, each CPU policy's min/max/governor, online cores, EMC, fan,
// and the power sensors' averaging counts.
#include <optional>
#include <string>
#include <vector>

#include <jetperf/platform/clock_control.hpp>
#include <jetperf/platform/sensor_averaging.hpp>

namespace jetperf::platform {

struct board_state {
  struct cluster_state {
    std::vector<int> cores;
    clock_range range;
  };
  std::optional<int> power_mode;
  std::optional<clock_range> gpu;
  std::vector<cluster_state> cpu;
  std::optional<std::vector<int>> online_cores;
  std::optional<emc_setting> emc;
  std::optional<int> fan_pwm;
  std::vector<sensor_chip_averaging> sensors;  ///< snapshots from before this existed have none
};

/// Reads the current settings (power mode is passed in: it comes from nvpmodel, not sysfs).
board_state capture_board_state(const clock_control& clocks, std::optional<int> power_mode);
/// Writes each chip's averaging count back where it differs. Carries on past failures and throws
/// one platform_error listing all of them.
void restore_sensor_averaging(const sysfs_root& root, const std::vector<sensor_chip_averaging>& chips);
/// Writes the clock/core/EMC/fan part back in a safe order (cores online, CPU, cores offline, GPU,
/// EMC, fan). Carries on past failures and throws one platform_error listing all of them.
void restore_board_clocks(clock_control& clocks, const board_state& state);

}  // namespace jetperf::platform
