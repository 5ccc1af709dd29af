#pragma once
// A CPU frequency policy and its cores (README 3).
#include <string>
#include <vector>

namespace jetperf::platform {

/// One cpufreq policy (a cluster): its cores share scaling_min/max_freq.
struct cpu_cluster {
  std::vector<int> cores;
  std::string cpufreq_dir;  ///< realpath of the policy directory
};

}  // namespace jetperf::platform
