#pragma once
// The one skeleton every measured point follows, whatever the kind: apply the point's board
// settings, measure the board at rest under them (once per setting and job), cool down, let the
// kind prepare its work, warm up, then the window: the kind's own (in_context), or the
// measurement loop's under one of two protocols (strategies), measured again while others take
// the CPU from it:
//  - adaptive: run until the stop rule is met (min/max time, min runs, RSE targets);
//  - fixed:    optionally a separate latency run of N runs, then a window of fixed length.
// A kind supplies only its prepare and run-once callbacks (point_plan) and reads the result.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/measure/point_context.hpp>
#include <jetperf/measure/contention.hpp>
#include <jetperf/measure/kernel_runs.hpp>
#include <jetperf/stats/latency_stats.hpp>
#include <jetperf/measure/measurement_loop.hpp>
#include <jetperf/measure/point_board.hpp>

namespace jetperf::measure {

struct adaptive_protocol {
  stop_criteria stop;  ///< min_time_s, max_time_s, min_samples, RSE targets
};

struct fixed_protocol {
  double window_s = 5.0;          ///< the whole window (boundaries included)
  std::size_t latency_runs = 0;   ///< > 0: latency from a separate run of this many before the window
};

struct point_plan {
  double idle_s = 0.5;      ///< idle baseline length under each distinct setting
  double boundary_s = 0.1;  ///< cut from both ends of the power windows
  double cooldown_s = 0;
  double warmup_s = 0;              ///< warm-up by time ...
  std::size_t warmup_runs = 0;      ///< ... and/or by count (at least one run when either is set)
  std::optional<fixed_protocol> fixed;  ///< absent: adaptive
  adaptive_protocol adaptive;
  /// A window others took more CPU time from than this allows is measured again.
  contention_policy contention;
  /// Prepares the work (allocations, plans); returns a reason to skip the point, or nullopt.
  std::function<std::optional<std::string>()> prepare;
  /// Runs the work once and returns its duration in seconds.
  timed_iteration run_once;
  /// When set, the window itself is the kind's (a protocol whose stop rule is not the RSE's, as
  /// the in-context layer estimate): called after the warm-up with the idle baseline, in place of
  /// the measurement loop.
  std::function<loop_result(std::optional<double> idle_w)> window;
  /// The backend's GPU kernel tracer (nullptr on the CPU): after the measurement loop's window,
  /// a few more runs go under it and their kernels onto the timeline (kernel_runs.hpp).
  workloads::kernel_tracer* tracer = nullptr;
};

struct point_measurement {
  applied_settings applied;
  std::optional<double> idle_w;
  loop_result window;
  stats::latency_stats latency;  ///< the window's runs, or the separate latency run (fixed protocol)
  std::optional<std::string> skipped;  ///< why the point did not run ("cancelled", prepare's reason)
};

/// Runs the skeleton for one point under its board setting. Throws what the board or the
/// callbacks throw.
point_measurement run_point(point_context& ctx, const platform::board_setting& setting, const point_plan& plan,
                            idle_power_cache& idle);

class point_protocol {
 public:
  point_protocol(point_context& ctx, const platform::board_setting& setting, const point_plan& plan,
                 idle_power_cache& idle)
      : ctx_(ctx), setting_(setting), plan_(plan), idle_(idle) {}

  /// Runs the steps once; throws what the board or the kind's callbacks throw.
  point_measurement operator()();

 private:
  /// The settings applied, the idle baseline under them, the cool-down; false when cancelled.
  bool settle();
  /// The kind's preparation; false (with the reason as the skip) when it cannot run the point.
  bool prepare();
  /// Runs discarded until warm: clocks ramp, caches, allocations and heuristics settle.
  void warm_up();
  /// The kind's own window (in_context): long and not repeated, its contention only reported.
  void kinds_window();
  /// The fixed protocol's separate latency runs, before its window (none for adaptive).
  std::vector<double> latency_runs();
  /// The measurement loop's window, fixed or adaptive, again while contended; false when cancelled.
  bool loop_window();
  /// The window's runs and a few traced ones on the timeline.
  void record_window();
  bool cancelled();

  point_context& ctx_;
  const platform::board_setting setting_;
  const point_plan& plan_;
  idle_power_cache& idle_;
  point_measurement m_;
};

}  // namespace jetperf::measure
