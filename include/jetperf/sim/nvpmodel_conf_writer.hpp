#pragma once
// Writes a simulated board's nvpmodel.conf: the project's own text in NVIDIA's grammar
// (README 8.2) with the board's real mode ids, names and limits (README 8.3).
#include <jetperf/sim/board_profile.hpp>

#include <string>

namespace jetperf::sim {

/// The whole conf file for the profile: PARAM blocks whose paths point into the board,
/// POWER_MODEL blocks in id order, PM_CONFIG DEFAULT and (Xavier) FAN_CONFIG DEFAULT.
std::string nvpmodel_conf_text(const board_profile& profile);

}  // namespace jetperf::sim
