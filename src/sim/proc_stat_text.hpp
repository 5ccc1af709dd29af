#pragma once
// The simulated board's /proc/stat (private to src/sim): per-core jiffies that the rail simulator
// accumulates from the workload's load, read by the daemon's CPU-load sensor and the simulated
// tegrastats as they read the real file on a board.
#include <string>
#include <vector>

namespace jetperf::sim::detail {

struct core_jiffies {
  double busy = 0, idle = 0;  ///< USER_HZ ticks
  bool online = true;
};

/// "cpu  ..." (the sum) and one "cpuN ..." line per online core, busy time counted as user time.
std::string proc_stat_text(const std::vector<core_jiffies>& cores);

}  // namespace jetperf::sim::detail
