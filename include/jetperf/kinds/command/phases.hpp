#pragma once
// A run's marked phases: begin/end markers paired by name into intervals, then each phase's
// count, time and energy per rail from the power samples over exactly its intervals.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/kinds/command/marker.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::kinds {

struct phase_interval {
  std::string name;
  std::int64_t t_start_ns = 0, t_end_ns = 0;
  bool closed = true;  ///< false: no `end` came; the interval ends with the run
};

struct paired_markers {
  std::vector<phase_interval> intervals;  ///< by start time
  std::map<std::string, std::size_t> marks;  ///< `mark` markers counted by name
  std::vector<std::string> problems;      ///< "end without begin: NAME", ...
};

/// Pairs begin/end by name (the same name may nest: an end closes the latest open begin); a
/// begin still open when the run ended at `run_end_ns` closes there and says so.
paired_markers pair_markers(const std::vector<marker>& markers, std::int64_t run_end_ns);

struct phase_figures {
  std::size_t count = 0;
  double time_s = 0;                         ///< all its intervals together
  std::optional<double> power_w;             ///< time-weighted mean total power
  std::optional<double> energy_j;
  std::optional<double> dynamic_energy_j;    ///< over the idle baseline
  std::map<std::string, double> rail_power_w, rail_energy_j;
  std::size_t samples = 0;                   ///< total-power samples inside its intervals
  std::size_t unclosed = 0;
};

/// Each phase's figures over `samples` (a window covering the run, with some margin on both
/// sides for the interpolation at its edges).
std::map<std::string, phase_figures> phase_energy(const paired_markers& pairs,
                                                  const std::vector<telemetry::channel_info>& channels,
                                                  const std::vector<telemetry::sample>& samples,
                                                  std::optional<int> total_channel, std::optional<double> idle_w);

/// {NAME: {count, time_s, power_w, energy_j, dynamic_energy_j, rail_power_w, rail_energy_j,
/// samples, unclosed}}: the `phases` column of a run.
nlohmann::json phases_json(const std::map<std::string, phase_figures>& phases);

}  // namespace jetperf::kinds
