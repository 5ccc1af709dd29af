#pragma once
// Busy fraction of each CPU from a /proc/stat file's deltas: the simulated tegrastats reads the
// simulated board's own /proc/stat (kept by the rail simulator) with it, as tegrastats reads the
// kernel's.
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
