#pragma once
// A run's marked phases: begin/end markers paired by name into intervals; each phase's figures
// (count, time, energy per rail) come from the protocol measure/protocols/phases.hpp, and their
// JSON form is the run's `phases` column.
#include <cstdint>
#include <map>
#include <string>
#include <vector>


#include <jetperf/common/cell.hpp>
#include <jetperf/kinds/command/marker.hpp>
#include <jetperf/measure/protocols/phases.hpp>

namespace jetperf::kinds {

struct paired_markers {
  std::vector<measure::phase_interval> intervals;  ///< by start time
  std::map<std::string, std::size_t> marks;  ///< `mark` markers counted by name
  std::vector<std::string> problems;      ///< "end without begin: NAME", ...
};

/// Pairs begin/end by name (the same name may nest: an end closes the latest open begin); a
/// begin still open when the run ended at `run_end_ns` closes there and says so.
paired_markers pair_markers(const std::vector<marker>& markers, std::int64_t run_end_ns);

/// {NAME: {count, time_s, power_w, energy_j, dynamic_energy_j, rail_power_w, rail_energy_j,
/// samples, unclosed}}: the `phases` column of a run.
record phases_record(const measure::phases_result& phases);

}  // namespace jetperf::kinds
