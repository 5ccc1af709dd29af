#pragma once
// The GPU devfreq node found through /sys/class/devfreq (README 1.1): the one GPU detection, which
// board discovery and the telemetry's clock sensor share.
#include <optional>
#include <string>

#include <jetperf/platform/sysfs_root.hpp>

namespace jetperf::platform {

/// The GPU's devfreq node: `freq_dir` holds min_freq/max_freq/cur_freq/available_frequencies.
struct gpu_node {
  std::string of_name;     ///< "ga10b", "gv11b", "gp10b", "gpu", ...; on Thor the entry's name, "gpu-gpc-0"
  std::string freq_dir;    ///< realpath of the /sys/class/devfreq entry
  std::string device_dir;  ///< realpath of <entry>/device (freq_dir where the entry has none)
};

/// Thor's gpu-gpc-N devfreq entry (the lowest N) where there is one; else the first
/// /sys/class/devfreq entry whose device/of_node/name is gv11b, gp10b, ga10b, gb10b or contains
/// "gpu" (as jtop finds it), with its paths resolved inside `root`; nullopt when none.
std::optional<gpu_node> find_gpu_node(const sysfs_root& root);

}  // namespace jetperf::platform
