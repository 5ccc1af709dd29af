#pragma once
// Runs started so that a sensor update falls where the estimate needs one. A layer of a
// millisecond under a 20 ms averaging window is told from its neighbours only by the readings
// whose window edge falls near or inside it; runs started at random phases put an edge there in
// one run out of twenty (its length over the window). Knowing the sensor's update clock (the
// fit) and where each layer falls in a run (the runs so far), the protocol delays each run so
// that an update lands at a chosen point of a layer still short of its target: every such run
// then carries the readings that layer lacks.
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <jetperf/stats/layer_power_estimate.hpp>

namespace jetperf::stats {

/// Where each layer falls within a run, on average over the runs seen.
class run_offsets {
 public:
  explicit run_offsets(std::size_t layer_count) : start_(layer_count, 0.0), end_(layer_count, 0.0), n_(layer_count, 0) {}
  /// One run's layers, in time order (the first one's start is the run's start).
  void add_run(const std::vector<layer_span>& spans);
  bool seen(int layer) const { return n_.at(static_cast<std::size_t>(layer)) > 0; }
  /// Mean time from the run's start to the layer's start, and to its end.
  double start_ns(int layer) const;
  double end_ns(int layer) const;

 private:
  std::vector<double> start_, end_;
  std::vector<std::size_t> n_;
};

/// A stretch of the run an update should fall in: [from_ns, to_ns] after the run's start.
struct edge_target {
  double from_ns = 0;
  double to_ns = 0;
};

/// The targets for the units not yet within `target_rel`: each unit's span in the run, widened
/// by `margin_ns` either side (the runs' own spread). Units never seen, or with no interval yet,
/// are left out.
std::vector<edge_target> edge_targets(const layer_power_result& estimate, const run_offsets& offsets,
                                      double target_rel, double margin_ns);

/// How long to wait from `now_ns` before starting a run so that one of the sensor's updates
/// (update_ns + k * period_ns) falls `offset_ns` after the run's start: in [0, period).
std::int64_t delay_for_update_at(std::int64_t now_ns, double offset_ns, std::int64_t update_ns, double period_ns);

}  // namespace jetperf::stats
