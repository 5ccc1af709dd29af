#pragma once
// The simulated board's `nvpmodel` (README 8.1): same options, output and exit codes as the real
// tool, over the board directory instead of the real file system. daemon/sim/nvpmodel_main.cpp
// is a thin main() around nvpmodel_main().
#include <iosfwd>
#include <string>
#include <vector>

#include <jetperf/platform/nvpmodel_conf.hpp>
#include <jetperf/sim/board_layout.hpp>

namespace jetperf::sim {

/// Writes every setting of `mode_id` in file order through kernel_write() under layout.root()
/// and records the mode in the status file. Throws not_found for an unknown id and
/// platform_error naming the path when a write fails (settings before it stay written).
void apply_nvpmodel_mode(const board_layout& layout, const platform::nvpmodel_conf& conf, int mode_id);

/// What nvpmodel does when the board boots: applies the mode confirmed for the next boot, if
/// any (the status file's pending mode), gating included. Returns whether one was applied.
bool boot_nvpmodel(const board_layout& layout, const platform::nvpmodel_conf& conf);

/// The board path nvpmodel uses for a PARAM argument: its _KNEXT twin on knext (r36) boards.
std::string nvpmodel_arg_path(const board_profile& profile, const platform::nvpmodel_param& param,
                              const std::string& arg);

/// Runs nvpmodel with `args` (no program name). Reads a confirmation line from `in` when a mode
/// change needs a reboot; a YES records the mode for the next boot instead of rebooting the
/// machine (the daemon restarts to boot the simulated board). Returns the exit status (0 ok, 1 error).
int nvpmodel_main(const board_layout& layout, const std::vector<std::string>& args, std::istream& in,
                  std::ostream& out, std::ostream& err);

}  // namespace jetperf::sim
