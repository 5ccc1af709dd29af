#pragma once
// The layers protocol `in_context`: every layer's power and energy from end-to-end runs of the
// whole network (measure/layer_power_estimate.hpp), rather than from each layer run alone.
// After the warm-up the network runs end to end, op by op on CLOCK_MONOTONIC, until every
// layer's energy interval is within the target (stop_reason converged), or those that are not
// would not be by max_time_s with the readings still to come (projected_max_time: judged from
// the runs' layout, measure/layer_power_estimate.hpp), or max_time_s, or the sensor's changes
// stop following the clock fitted to them (sensor_clock_lost: no later reading could be placed;
// the estimate keeps those placed before). Every quarter second (at least four solves apart) the
// sensor's update times are refitted from the window's samples (measure/sensor_updates.hpp),
// the estimate is solved, and layers that could not be resolved by max_time_s are merged with a
// neighbour. Each run starts after a pause of pause_windows sensor windows, whose power the
// estimator measures as an unknown of its own; when the runs lock in phase with the sensor's
// updates, a random pause of up to one sensor period more, so the windows' edges fall across
// the layers again.
// With aim_updates (off by default), every other run is delayed so that an update falls inside a
// layer still short of its target.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/backend/layer_backend.hpp>
#include <jetperf/jobs/workload.hpp>
#include <jetperf/measure/measurement_loop.hpp>
#include <jetperf/models/network.hpp>

namespace jetperf::kinds {

struct in_context_power_plan {
  double min_time_s = 1;
  double max_time_s = 2;
  double target_rel = 0.05;         ///< relative half-width of each layer's 95% energy interval
  double boundary_s = 0.05;         ///< cut from both ends of the end-to-end power window
  double check_period_s = 0.25;     ///< how often the estimate is solved while running (at least 4 solves apart)
  std::size_t max_spans = 1u << 20; ///< layer spans kept (24 bytes each): the memory bound
  /// Every other run starts so that a sensor update falls inside a layer still short of its
  /// target (measure/window_edge_targets.hpp; the readings over each pause are left out, as a
  /// board need not fall to idle the moment its work pauses). Off: on the simulated Orin it made
  /// resnet50's blocks slower to settle (17-31 s against 9-14 s, bench_in_context_rate), the
  /// pauses costing more time than the aimed readings save.
  bool aim_updates = false;
  /// The pause before each run after the first, in sensor windows (0: back to back). A run's
  /// last layers and the next run's first ones are then told apart by every reading over them,
  /// not only by the few window edges that fall between them: on the simulated Orin, resnet50's
  /// blocks (one power per block) settled in 9 (6-14) runs with 1.5 windows against 18 (16-20)
  /// back to back, 6 jobs each (README, in_context).
  double pause_windows = 1.5;
  /// A layer of several ops (a residual block) is modelled op by op, ops shorter than this many
  /// sensor windows together with the next ops of their layer, and its power is theirs weighted
  /// by their times (measure::layer_estimate_options::min_part_ns; 0: op by op). A block's ops
  /// draw different powers: with one power per block, a short layer beside it (maxpool before
  /// layer1.0) took up the difference, up to 2.1 W too high on the simulated Orin.
  double min_part_windows = 0.4;
  /// The sensors' update interval when the point changed their averaging (0: the sampler's).
  double sensor_period_s = 0;
  /// CLOCK_MONOTONIC from when the readings are of the point's averaging (0: all are): the
  /// sensor's clock is not fitted from polls before it.
  std::int64_t sensor_since_ns = 0;
  /// How often the sampler read the power sensors during the point (s; 0: unknown), for the
  /// estimator's diagnostics.
  double poll_period_s = 0;
};

struct in_context_power {
  measure::loop_result window;      ///< the end-to-end runs as one window (its power, latency)
  /// One item per layer of `layers` (the point's row list), in layer order.
  nlohmann::json rows = nlohmann::json::array();
  /// The estimator's diagnostics: readings, runs, condition number, merges, the sensor fit.
  nlohmann::json estimator = nlohmann::json::object();
  double sum_energy_j = 0, sum_energy_ci95_j = 0;
  bool estimated = false;           ///< false: no power figure per layer (why in estimator.unresolvable)
};

/// The end-to-end row's power over the runs alone: the mean over a window of `window_s` that held
/// `paused_s` of pauses at `between_runs_w`, those taken out (`window_w` itself when nothing
/// was paused or the pauses' power is unknown).
double power_over_runs(double window_w, double window_s, double paused_s, double between_runs_w);

/// The end-to-end row's flags: `paused_between_runs` (the runs paused between them: power_w and
/// energy_j are the runs' own, the pauses taken out at their measured power, but the rails'
/// means are the whole window's),
/// `sensor_clock_lost` (the sensor's changes stopped following its clock: the layers' figures
/// come from the readings placed before, and the runs stopped there).
std::vector<std::string> in_context_flags(const in_context_power& p);

/// Runs the protocol on `be`, prepared with the whole of `net`. `idle_w` is the board's idle
/// baseline under the point's settings (the estimator's known term).
in_context_power measure_in_context_power(const measure::point_context& ctx, workloads::layer_backend& be,
                                          const models::network& net, const std::vector<models::layer>& layers,
                                          std::optional<double> idle_w, const in_context_power_plan& plan);

}  // namespace jetperf::kinds
