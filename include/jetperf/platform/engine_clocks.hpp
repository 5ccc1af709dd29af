#pragma once
// The fixed-function engines whose clocks tegrastats prints (APE, NVDEC, NVENC, NVJPG, VIC, OFA,
// and JetPack 7's numbered ones), by their debugfs clock names, and the files that hold an
// engine's clock under a board root (sysfs_paths.hpp, "Engine clocks").
#include <string>
#include <vector>

#include <jetperf/platform/sysfs_root.hpp>

namespace jetperf::platform {

/// Debugfs clock names, lower case as tegrastats' upper-case field names are less "_FREQ"
/// (`VIC_FREQ` and `VIC` are "vic", `PVA0_FREQ` is "pva0"), in the order tegrastats prints them.
const std::vector<std::string>& engine_clock_names();

/// The engine clock name of a tegrastats field (`NVJPG1` -> "nvjpg1", `VIC_FREQ` -> "vic").
std::string engine_clock_name(const std::string& tegrastats_field);

struct engine_clock_files {
  std::string enable;  ///< clk_enable_count; empty: none (the clock always runs, as APE's)
  std::string rate;    ///< Hz; empty: none
  bool any() const { return !enable.empty() || !rate.empty(); }
};

/// The files of `clock`'s enable count and rate under `root` that exist (BPMP's rate first).
engine_clock_files find_engine_clock(const sysfs_root& root, const std::string& clock);

/// Where a board of `soc` keeps `clock`'s files (what find_engine_clock looks for first): the
/// simulator's board trees are written from this.
engine_clock_files engine_clock_paths(const std::string& soc, const std::string& clock);

}  // namespace jetperf::platform
