#pragma once
// Where this board's controls are, found rather than hard-coded (README 1.1, 2, 3, 5): the GPU
// devfreq node, CPU frequency policies and cores, the EMC files of the SoC family, the fan PWM.
// Paths are board paths (relative to the sysfs_root).
#include <optional>
#include <string>
#include <vector>

#include <jetperf/platform/board_info.hpp>
#include <jetperf/platform/cpu_cluster.hpp>
#include <jetperf/platform/emc_files.hpp>
#include <jetperf/platform/gpu_node.hpp>
#include <jetperf/platform/sysfs_root.hpp>

namespace jetperf::platform {

struct board_discovery {
  std::optional<gpu_node> gpu;
  std::vector<cpu_cluster> clusters;
  std::vector<int> cores;  ///< present cores
  emc_files emc;
  std::string fan_pwm;  ///< "" when no fan
};

board_discovery discover_board(const sysfs_root& root, const board_info& info);
/// "0,3-5" -> {0,3,4,5}; also accepts space-separated lists (related_cpus). Bad parts are skipped.
std::vector<int> parse_cpu_list(const std::string& text);

}  // namespace jetperf::platform
