#pragma once
// A sysfs write as the kernel driver behind the file would take it, for the simulator's own
// nvpmodel: cpufreq and devfreq limits are clamped (devfreq to a table entry), min <= max is
// kept, cur_freq follows at once, and cpuN/online updates cpu/online.
#include <jetperf/sim/board_profile.hpp>

#include <string>

namespace jetperf::sim {

/// Writes `value` to the board path under the host directory `root`. Throws platform_error when
/// the file does not exist (sysfs cannot create files) or a numeric file gets a non-number.
void kernel_write(const board_profile& profile, const std::string& root, const std::string& board_path,
                  const std::string& value);

/// Rewrites /sys/devices/system/cpu/online and offline from the cpuN/online files.
void refresh_cpu_online(const board_profile& profile, const std::string& root);

/// The largest entry <= v (or the smallest entry when v is below the table).
long long table_floor(const std::vector<long long>& table, long long v);
/// The smallest entry >= v (or the largest entry when v is above the table).
long long table_ceil(const std::vector<long long>& table, long long v);

}  // namespace jetperf::sim
