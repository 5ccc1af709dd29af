#pragma once
// The measurement window: runs one iteration after another, checks the stop rule after each,
// reads the power window from telemetry, and returns everything a point reports.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <jetperf/measure/clock.hpp>
#include <jetperf/measure/contention.hpp>
#include <jetperf/stats/latency_stats.hpp>
#include <jetperf/measure/power_window.hpp>
#include <jetperf/measure/stop_rule.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::measure {

/// Runs one iteration to completion and returns its duration in seconds. CPU backends time it
/// with steady_clock (steady_clock_iteration); GPU backends with CUDA events through their hook.
using timed_iteration = std::function<double()>;

/// Wraps `fn` so each call is timed with std::chrono::steady_clock.
timed_iteration steady_clock_iteration(std::function<void()> fn);

struct loop_options {
  stop_criteria stop;
  double boundary_s = 0;               ///< cut from both ends of the power window
  double power_check_period_s = 0.05;  ///< how often the power window is re-read while running
  std::size_t rse_batches = 10;        ///< batch means for the power RSE
  const std::atomic<bool>* cancel = nullptr;
  clock* time = nullptr;               ///< the window's clock (null: CLOCK_MONOTONIC)
};

/// Iterations of a window whose start times are kept (the timeline's bounded sample of runs).
constexpr std::size_t k_timed_runs = 256;

struct loop_result {
  std::vector<double> times_s;        ///< one per iteration
  /// When each of the first k_timed_runs iterations ended (monotonic), for the job's timeline
  /// (each began times_s earlier).
  std::vector<std::int64_t> ends_ns;
  stats::latency_stats latency;
  std::int64_t t_start_ns = 0;        ///< monotonic, start of the first iteration
  std::int64_t t_end_ns = 0;          ///< monotonic, end of the last iteration
  stop_decision decision;
  /// With stop_reason projected_max_time: the latency's RSE projected at max_time_s.
  std::optional<double> projected_rse;
  std::optional<power_summary> power; ///< trimmed window; nullopt without telemetry
  std::vector<telemetry::sample> samples;  ///< the trimmed window's samples (for throttle checks)
  /// Seconds of the trimmed power window, and how many of them (its end) the telemetry still
  /// held when it was read: less when the window outlasted what the source keeps.
  double power_window_s = 0;
  double power_covered_s = 0;
  /// Other processes' share of the workload's cores in this window, and the windows measured
  /// before it for theirs (nullopt where the point has no CPU usage source).
  std::optional<window_contention> contention;
  bool cancelled = false;
};

class measurement_loop {
 public:
  /// `source` may be null (no telemetry: the power criterion does not apply).
  measurement_loop(loop_options options, const telemetry::sample_source* source)
      : options_(std::move(options)), source_(source) {}

  loop_result run(const timed_iteration& iteration) const;

 private:
  /// Reads and summarises [from, to] trimmed by the boundary; `r` (when given) receives the
  /// kept samples and the window's coverage.
  std::optional<power_summary> read_power(std::int64_t from_ns, std::int64_t to_ns, loop_result* r) const;

  loop_options options_;
  const telemetry::sample_source* source_;
};

}  // namespace jetperf::measure
