#pragma once
// The protocols `fixed` and `adaptive`, and the skeleton around every measured point's window
// (measure/point_protocol.hpp's point_plan says which): settle the board (its settings, the idle
// baseline under them, the cool-down), prepare the kind's work, warm up, then the window: the
// kind's own (in_context), or the measurement loop's, of a fixed length or until its stop rule
// is met, measured again while others take the CPU from it.
#include <cstdint>
#include <vector>

#include <jetperf/measure/point_protocol.hpp>

namespace jetperf::measure {

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
