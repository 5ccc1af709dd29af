#pragma once
// Busy fraction of each host CPU from /proc/stat deltas: the real load that the simulator's CPU
// rails and the simulated tegrastats CPU field follow.
#include <string>
#include <vector>

namespace jetperf::sim {

class host_cpu_stat {
 public:
  explicit host_cpu_stat(std::string proc_stat = "/proc/stat");
  /// Busy fraction (0..1) per host CPU since the previous call (the first call: since boot).
  /// Empty when the file cannot be read.
  std::vector<double> sample();

 private:
  struct times {
    unsigned long long busy = 0, total = 0;
  };
  std::string path_;
  std::vector<times> last_;
};

}  // namespace jetperf::sim
