#pragma once
// A simulated board's profile as a file (`jetperfd --board sim:PATH.json`): every field of
// board_profile as JSON, so that users can model a board jetperf does not ship and tests can move
// the estimators away from the built-in profiles. `jetperfd --write-sim-profile NAME` writes a
// built-in one in this form; reading it back gives the same board. The sensors are plain fields
// (each chip's update_period_ms, lag_ms, noise_mw, noise_fraction and channels) beside the power
// model's coefficients and the clock tables (docs/simulator.md).
#include <string>

#include <jetperf/sim/board_profile.hpp>

namespace jetperf::sim {

/// The profile as a JSON document (every field, in declaration order).
std::string profile_json_text(const board_profile& profile);

/// A profile from such a document. Throws validation_error naming the field (a dotted path:
/// "ina[1].sensor.update_period_ms") for an unknown field, a value of the wrong type, or a
/// profile that contradicts itself (see check_profile).
board_profile profile_from_json_text(const std::string& text);

/// Reads and checks a profile file; errors name the file and the field.
board_profile read_profile_file(const std::string& path);

/// Refuses a profile that could not be a board: no cores, tables out of order, a mode naming a
/// core or default that does not exist, a chip without three channels, a sensor period outside
/// 0.1-1000 ms, a negative lag or noise. Throws validation_error naming the field.
void check_profile(const board_profile& profile);

}  // namespace jetperf::sim
