#pragma once
// Which switches of a sweep's power modes need a reboot, from what the board offers: checked when
// a spec is validated (refused without allow_reboot) and listed by a dry run.
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/platform/board_setting.hpp>

namespace jetperf::platform {

/// One switch between power modes that nvpmodel applies only at the next boot.
struct reboot_step {
  std::int64_t from = 0;
  std::int64_t to = 0;
  bool restore = false;  ///< the switch back to the mode the board had before the job
};

/// The switches of going through `modes` in order (repeats allowed) that need a reboot, starting
/// from offered.power_mode and, when it is known, ending with the switch back to it. Empty when the
/// board says nothing about reboots.
std::vector<reboot_step> reboot_steps(const board_offer& offered, const std::vector<std::int64_t>& modes);

/// "2 (MODE_30W) -> 0 (MAXN), ..., 3 (MODE_50W) -> 2 (MODE_30W) when the job ends".
std::string describe(const board_offer& offered, const std::vector<reboot_step>& steps);

}  // namespace jetperf::platform
