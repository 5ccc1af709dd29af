#pragma once
// Where this board's controls are, found rather than hard-coded (README 1.1, 2, 3, 5): the GPU
// devfreq node, CPU frequency policies and cores, the EMC files of the SoC family, the fan PWM.
// Paths are board paths (relative to the sysfs_root).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/platform/board_info.hpp>
#include <jetperf/platform/sysfs_root.hpp>

namespace jetperf::platform {

/// The GPU's devfreq node: `freq_dir` holds min_freq/max_freq/cur_freq/available_frequencies.
struct gpu_node {
  std::string of_name;     ///< "ga10b", "gv11b", "gp10b", "gpu", ...
  std::string freq_dir;    ///< realpath of the /sys/class/devfreq entry
  std::string device_dir;  ///< realpath of <entry>/device
};

/// One cpufreq policy (a cluster): its cores share scaling_min/max_freq.
struct cpu_cluster {
  std::vector<int> cores;
  std::string cpufreq_dir;  ///< realpath of the policy directory
};

/// EMC control files for the family ("bpmp": t186/t194/t234, "t210"); `kind` "" when absent.
struct emc_files {
  std::string kind;
  std::string rate;      ///< current rate
  std::string min_rate;
  std::string max_rate;
  std::string lock;      ///< bpmp mrq_rate_locked / t210 override clk_state
  std::string update;    ///< t210 clk_update_rate ("" on bpmp, where `rate` is written)
  std::string possible;  ///< optional list of rates, "" when absent
  std::string cap;       ///< nvpmodel EMC cap file, "" when absent
};

struct board_discovery {
  std::optional<gpu_node> gpu;
  std::vector<cpu_cluster> clusters;
  std::vector<int> cores;  ///< present cores
  emc_files emc;
  std::string fan_pwm;  ///< "" when no fan
  nlohmann::json to_json() const;
};

board_discovery discover_board(const sysfs_root& root, const board_info& info);
/// "0,3-5" -> {0,3,4,5}; also accepts space-separated lists (related_cpus). Bad parts are skipped.
std::vector<int> parse_cpu_list(const std::string& text);

}  // namespace jetperf::platform
