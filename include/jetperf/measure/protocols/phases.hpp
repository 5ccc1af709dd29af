#pragma once
// The protocol `phases` (the command kind's marked phases): each phase's count, time and energy
// per rail from the power samples over exactly its intervals, which may be shorter than the
// sensor's update period (each channel's samples are integrated piecewise linearly,
// measure/interval_power.hpp). The intervals come from the program's markers (the kind pairs
// them); the protocol runs after the program, over a window of samples read once.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/measure/interval_power.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::measure {

/// One marked interval of a phase.
struct phase_interval {
  std::string name;
  std::int64_t t_start_ns = 0, t_end_ns = 0;
  bool closed = true;  ///< false: no `end` came; the interval ends with the run
};

/// One phase over all its intervals.
struct phase_figures {
  std::size_t count = 0;
  double time_s = 0;                         ///< all its intervals together
  std::optional<double> power_w;             ///< time-weighted mean total power
  std::optional<double> energy_j;
  std::optional<double> dynamic_energy_j;    ///< over the idle baseline
  std::map<std::string, double> rail_power_w, rail_energy_j;  ///< by rail name, without "rail."
  std::size_t samples = 0;                   ///< total-power samples inside its intervals
  std::size_t unclosed = 0;
};

struct phases_result {
  std::map<std::string, phase_figures> phases;  ///< by phase name
};

/// The protocol over `samples` (a window covering the intervals, with some margin on both sides
/// for the interpolation at their edges) of `channels`; `total_channel` is the total power
/// (none: no power or energy, only counts, times and rails); `idle_w` the idle baseline the
/// dynamic energy is over (none: no dynamic energy). operator() integrates each interval, then
/// sums each phase's figures.
class phases_protocol {
 public:
  phases_protocol(const std::vector<telemetry::channel_info>& channels, const std::vector<telemetry::sample>& samples,
                  std::optional<int> total_channel, std::optional<double> idle_w);
  phases_result operator()(const std::vector<phase_interval>& intervals) const;

 private:
  void integrate_total(const phase_interval& iv, phase_figures& f) const;
  void integrate_rails(const phase_interval& iv, phase_figures& f) const;
  static void mean_powers(phase_figures& f);

  std::vector<telemetry::channel_info> channels_;
  std::map<int, time_series> series_;  ///< the samples by channel
  const time_series* total_ = nullptr;
  std::optional<double> idle_w_;
};

}  // namespace jetperf::measure
