#pragma once
// The board as GET /v1/board describes it: identity, power modes, the frequency lists and ranges
// of every control, cores, fan and the paths in use. Typed here; api/board_views.hpp makes the
// JSON. The parts are plain aggregates of this one description, so they share its header.
#include <optional>
#include <string>
#include <vector>

#include <jetperf/platform/board_discovery.hpp>
#include <jetperf/platform/board_info.hpp>
#include <jetperf/platform/clock_range.hpp>
#include <jetperf/platform/emc_setting.hpp>

namespace jetperf::platform {

/// One mode of nvpmodel.conf; the optional parts are there when the mode's settings name them.
struct power_mode_description {
  int id = 0;
  std::string name;
  bool is_default = false;
  /// The mode's caps (mode_caps.hpp); absent both when the mode names no such cap and when it
  /// names one with nvpmodel's "no limit" values (-1, 0), which the *_uncapped flags tell apart.
  std::optional<long long> gpu_max_hz;
  std::optional<long long> emc_max_hz;
  std::optional<int> cores_online;  ///< count of CPU_ONLINE entries set to 1
  bool reboot_needed_from_default = false;
  std::optional<long long> cpu_max_khz;
  bool gpu_uncapped = false;  ///< GPU MAX_FREQ is -1 (2147483647): no cap
  bool emc_uncapped = false;  ///< EMC MAX_FREQ is 0: no cap
  bool cpu_uncapped = false;  ///< the CPU clusters' MAX_FREQ are -1: no cap
};

struct gpu_description {
  std::vector<long long> available_hz;
  clock_range range;
  /// How the GPU's 3D scaling is switched: "enable_3d_scaling" (nvgpu's file, up to L4T r36) or
  /// "devfreq_governor" (nvhost_podgov vs performance: JetPack 7.2 Orin, Thor).
  std::string scaling;
};

struct cluster_description {
  std::vector<int> cores;
  std::vector<long long> available_khz;
  std::optional<clock_range> range;  ///< absent when the policy's files cannot be read (offline)
};

struct cpu_description {
  std::vector<cluster_description> clusters;
  std::vector<int> cores;   ///< present cores
  std::vector<int> online;  ///< online cores
  std::vector<long long> available_khz;
};

struct emc_description {
  std::vector<long long> available_hz;
  std::optional<emc_setting> setting;  ///< absent when the EMC files cannot be read
};

struct board_description {
  board_info info;
  std::vector<power_mode_description> modes;  ///< empty without nvpmodel.conf
  std::optional<int> default_mode;
  std::optional<gpu_description> gpu;
  cpu_description cpu;
  std::optional<emc_description> emc;
  bool has_fan = false;
  std::optional<int> fan_pwm;  ///< with has_fan: absent when the PWM file cannot be read
  board_discovery paths;
  std::optional<std::string> nvpmodel;  ///< the nvpmodel program, when power modes are offered
};

}  // namespace jetperf::platform
