#pragma once
// How busy the cores this process may run on were, and how much of that was this process: what
// a measurement window needs to tell whether other processes took CPU time from it. The kernel's
// /proc/stat is the truth on a board and on a simulator's host alike (steal, the time a
// hypervisor gave to others, counts as busy: it was taken from the workload too).
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::platform {

struct cpu_usage_snapshot {
  std::int64_t t_ns = 0;  ///< CLOCK_MONOTONIC
  double busy_s = 0;      ///< non-idle time of the cores in the affinity mask, since boot
  double own_s = 0;       ///< this process's CPU time, all its threads
  int cores = 0;          ///< cores in the affinity mask
};

class cpu_usage {
 public:
  virtual ~cpu_usage() = default;
  virtual cpu_usage_snapshot now() const = 0;
};

/// Reads `stat_path` (/proc/stat) for the cores in this process's affinity mask, and the
/// process's own CPU clock. Throws std::runtime_error when the file cannot be read or lacks a core.
class proc_cpu_usage final : public cpu_usage {
 public:
  explicit proc_cpu_usage(std::string stat_path = paths::proc_stat);
  cpu_usage_snapshot now() const override;

 private:
  std::string path_;
};

/// Busy seconds of the cores `cores` in a /proc/stat text (user, nice, system, irq, softirq and
/// steal of each "cpuN" line; idle and iowait are not busy), at `ticks_per_s` (USER_HZ). Throws
/// std::runtime_error when a core has no line.
double busy_seconds(const std::string& stat_text, const std::vector<int>& cores, long ticks_per_s);

/// The share of the cores' time between `a` and `b` that other processes took: (busy - own) /
/// (wall x cores), within [0, 1] (0 for an empty interval).
double others_share(const cpu_usage_snapshot& a, const cpu_usage_snapshot& b);

}  // namespace jetperf::platform
