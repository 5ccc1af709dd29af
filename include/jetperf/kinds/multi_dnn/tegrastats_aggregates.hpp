#pragma once
// The tegrastats aggregates seed 001 keeps per mapping ("Tegrastats" in its processed JSON),
// computed from the daemon's own sampler over the mapping's power window rather than from a
// tegrastats log: per-core CPU utilisation and frequency min/max/avg, GPU (GR3D) and EMC
// utilisation and frequency, RAM and SWAP, each temperature zone and each rail's power.
#include <optional>

#include <jetperf/common/cell.hpp>
#include <jetperf/measure/power_window.hpp>
#include <jetperf/platform/meminfo.hpp>

namespace jetperf::kinds {

struct memory_use {
  std::optional<double> ram_mb, swap_mb;
};

/// RAM and swap in use in MB (MemTotal - MemAvailable, SwapTotal - SwapFree, two decimals) of
/// `memory`: platform::host_memory_info(), the machine the networks run on (a board's own or, on
/// a simulated board, the host's).
memory_use memory_use_of(const platform::memory_info& memory);

/// The seed's layout, in its key order: "RAM", "SWAP" (MB), "CPU" {"Utilization", "Frequencies"
/// (MHz)} {min, max, avg} lists per core, "EMC_FREQ" and "GR3D_FREQ" {Utilization (%),
/// Frequencies (MHz)} {min, max, avg}, the engines ("NVDEC", "VIC", "APE", ...: "off", or the
/// clock's mean in MHz), "<zone> Temperature" (C, mean) and "<rail> Power" (mW,
/// mean), from the window's per-channel summary (summarize_window keeps every channel's min, max
/// and mean). What the board's sampler has no channel for is left out.
record tegrastats_aggregates(const measure::power_summary& window, const memory_use& memory);

}  // namespace jetperf::kinds
