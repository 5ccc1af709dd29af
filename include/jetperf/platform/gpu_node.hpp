#pragma once
// The GPU devfreq node found through /sys/class/devfreq (README 1.1).
#include <string>

namespace jetperf::platform {

/// The GPU's devfreq node: `freq_dir` holds min_freq/max_freq/cur_freq/available_frequencies.
struct gpu_node {
  std::string of_name;     ///< "ga10b", "gv11b", "gp10b", "gpu", ...
  std::string freq_dir;    ///< realpath of the /sys/class/devfreq entry
  std::string device_dir;  ///< realpath of <entry>/device
};

}  // namespace jetperf::platform
