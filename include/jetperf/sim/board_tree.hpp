#pragma once
// The sysfs/procfs/debugfs tree of a simulated board under "<dir>/root" (README sections 0-6).
#include <jetperf/sim/board_profile.hpp>

#include <string>

namespace jetperf::sim {

/// Writes the tree of `profile` under the host directory `root`. Facts (names, tables, model)
/// are always rewritten; settings (online cores, min/max caps, governors, masks, fan PWM) and
/// live values (cur_freq, rails, temperatures) are kept when present unless `reset` is true.
/// Returns true when the tree was new (or reset), i.e. it still needs a power mode applied.
bool write_board_tree(const board_profile& profile, const std::string& root, bool reset);

/// Host directory of the hwmon node of INA chip `chip` (r35+) or of its iio:device (r32).
std::string rail_dir(const board_profile& profile, const std::string& root, const ina_chip& chip);

/// Board path of the hwmon node of an INA238 chip.
std::string ina238_dir(const ina238_chip& chip);

/// The /sys/devices/system/cpu/online text ("0-3,6") for a per-core online list.
std::string cpu_range_list(const std::vector<bool>& online);

}  // namespace jetperf::sim
