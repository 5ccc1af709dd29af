#pragma once
// The parts of a point's duration that the measurement protocol (measure/protocols/point.hpp) adds around
// its runs, for the kinds' estimates: the idle baseline of each new board setting, the adaptive
// window's floor, and the clock a run is bound by (what the cost model scales run times with).
#include <cstddef>
#include <optional>
#include <set>
#include <string>


#include <jetperf/measure/run_cost.hpp>
#include <jetperf/platform/board_setting.hpp>

namespace jetperf::kinds::common {

/// The clock a run on `device` is bound by, when the point sets it: the CPU clock for "cpu",
/// the GPU's for "cuda".
std::optional<double> device_clock_hz(const platform::board_setting& point, const std::string& device);

/// How long an adaptive window lasts: min_time_s, or min_runs runs when they take longer, or the
/// runs a time RSE target needs at the runs' variation ((cv / target)^2, when the target is a
/// criterion), and never past max_time_s and the run under way then.
double adaptive_window_s(double min_time_s, double max_time_s, std::size_t min_runs, const measure::run_time& run,
                         std::optional<double> time_rse_target);

/// The idle baselines a job measures: one per distinct board setting (idle_power_cache).
class idle_baseline_estimate {
 public:
  explicit idle_baseline_estimate(double seconds) : seconds_(seconds) {}
  /// Seconds `point` spends on an idle baseline: `seconds` for the first point of its setting, else 0.
  double add(const platform::board_setting& point);

 private:
  double seconds_;
  std::set<std::string> seen_;
};

}  // namespace jetperf::kinds::common
