#pragma once
// The power mode's caps as a simulated board holds them (docs/simulator.md, "Power modes and
// clocks"): on the r35+ profiles a CPU policy's or the GPU's max limit written above the cap of
// the mode in effect reads back as the highest step under the cap, and a min limit above it
// follows (the kernel keeps min <= max), so the clock runs at most there. The r32 profiles keep
// what is written, as a 4.9 kernel's devfreq and cpufreq take a root write over nvpmodel's;
// EMC is held under its cap file on every profile (rail_simulator.cpp).
#include <string>

#include <jetperf/sim/board_profile.hpp>

namespace jetperf::sim {

/// Whether the profile's kernel holds CPU and GPU clocks under the mode's caps (L4T r35 and later).
bool holds_mode_caps(const board_profile& profile);

/// Rewrites the limit files under host root `root` that are above the caps of the mode the
/// board's nvpmodel status names (nothing when the profile does not hold caps, or no mode is
/// set). Returns how many files it rewrote.
int hold_mode_caps(const board_profile& profile, const std::string& root);

}  // namespace jetperf::sim
