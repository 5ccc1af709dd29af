#pragma once
// The layers protocol `in_context`: every layer's power and energy from end-to-end runs of the
// whole network (stats/layer_power_estimate.hpp), rather than from each layer run alone.
// After the warm-up the network runs end to end, op by op, until every layer's energy interval
// is within the target (stop_reason converged), or those that are not would not be by max_time_s
// with the readings still to come (projected_max_time: judged from the runs' layout,
// stats/layer_power_estimate.hpp), or max_time_s, or the sensor's changes stop following the
// clock fitted to them (sensor_clock_lost: no later reading could be placed; the estimate keeps
// those placed before). Every quarter second (at least four solves apart) the sensor's update
// times are refitted from the window's samples (stats/sensor_updates.hpp), the estimate is
// solved, and layers that could not be resolved by max_time_s are merged with a neighbour. Each
// run starts after a pause of pause_windows sensor windows, whose power the estimator measures
// as an unknown of its own; when the runs lock in phase with the sensor's updates, a random pause
// of up to one sensor period more, so the windows' edges fall across the layers again.
// With aim_updates (off by default), every other run is delayed so that an update falls inside a
// layer still short of its target.
// A GPU backend's ops run asynchronously: on a GPU with NVML power (the dgpu board), each run's
// ops are timed by their kernels (CUPTI, measure/kernel_ops.hpp), and NVML's energy counter holds
// the final estimate (stats/gpu_layer_energy.hpp).
// The protocol runs on the point context's clock: CLOCK_MONOTONIC on a board, virtual time in
// tests (whose synthetic board's work and sensor advance the same clock).
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <jetperf/backend/layer_backend.hpp>
#include <jetperf/stats/gpu_layer_energy.hpp>
#include <jetperf/stats/latency_stats.hpp>
#include <jetperf/stats/layer_power_estimate.hpp>
#include <jetperf/measure/measurement_loop.hpp>
#include <jetperf/measure/modelled_truth.hpp>
#include <jetperf/measure/point_context.hpp>
#include <jetperf/measure/sensor_facts.hpp>
#include <jetperf/stats/sensor_updates.hpp>
#include <jetperf/stats/window_edge_targets.hpp>
#include <jetperf/stats/window_offset.hpp>
#include <jetperf/models/network.hpp>

namespace jetperf::measure {

struct in_context_plan {
  double min_time_s = 1;
  double max_time_s = 2;
  /// Relative half-width of each layer's 95% interval, of its dynamic power (its power less
  /// the idle baseline: layer_estimate_options::relative_to_dynamic).
  double target_rel = 0.10;
  /// A layer whose interval would not get within this share of its dynamic power by max_time_s
  /// is merged with a neighbour (a group's figure, not a member's that means nothing).
  double resolvable_rel = 0.30;
  double boundary_s = 0.05;         ///< cut from both ends of the end-to-end power window
  double check_period_s = 0.25;     ///< how often the estimate is solved while running (at least 4 solves apart)
  std::size_t max_spans = 1u << 20; ///< layer spans kept (24 bytes each): the memory bound
  /// Every other run starts so that a sensor update falls inside a layer still short of its
  /// target (stats/window_edge_targets.hpp; the readings over each pause are left out, as a
  /// board need not fall to idle the moment its work pauses). Off: on the simulated Orin it made
  /// resnet50's blocks slower to settle (17-31 s against 9-14 s, bench_in_context_rate), the
  /// pauses costing more time than the aimed readings save.
  bool aim_updates = false;
  /// The pause before each run after the first, in sensor windows (0: back to back). A run's
  /// last layers and the next run's first ones are then told apart by every reading over them,
  /// not only by the few window edges that fall between them: on the simulated Orin, resnet50's
  /// blocks (one power per block) settled in 9 (6-14) runs with 1.5 windows against 18 (16-20)
  /// back to back, 6 jobs each (docs: in_context).
  double pause_windows = 1.5;
  /// A layer of several ops (a residual block) is modelled op by op, ops shorter than this many
  /// sensor windows together with the next ops of their layer, and its power is theirs weighted
  /// by their times (measure::layer_estimate_options::min_part_ns; 0: op by op). A block's ops
  /// draw different powers: with one power per block, a short layer beside it (maxpool before
  /// layer1.0) took up the difference, up to 2.1 W too high on the simulated Orin.
  double min_part_windows = 0.4;
  /// The sensors' update interval when the point changed their averaging (0: the sampler's).
  double sensor_period_s = 0;
  /// When the readings are of the point's averaging (0: all are): the sensor's clock is not
  /// fitted from polls before it.
  std::int64_t sensor_since_ns = 0;
  /// How often the sampler read the power sensors during the point (s; 0: unknown), for the
  /// estimator's diagnostics.
  double poll_period_s = 0;
  /// Windows measured again, each twice as long as the last, when the sensor's update clock
  /// could not be fitted from the window's polls (a loaded host polls late and unevenly: 379 of
  /// 659 changes unexplained in one resnet50 job). The last window is kept; still unfitted, its
  /// layers are unresolvable.
  std::size_t sensor_retries = 1;
};

/// How a layer's figure came about.
enum class layer_resolution {
  resolved,       ///< its own unit, within the target
  not_converged,  ///< its own unit, short of the target
  merged,         ///< measured together with its neighbours (merged_with): no figure of its own, its group's is in_context_group
  unresolvable,   ///< no figure (why: in_context_diagnostics::unresolvable)
  runs_nothing,   ///< an alias (a flatten): nothing of it ran
};
const char* to_string(layer_resolution r);

/// One layer's figures from the end-to-end runs.
struct in_context_layer {
  std::size_t index = 0;
  std::string name, type;
  stats::latency_stats latency;  ///< its time in each run
  layer_resolution resolution = layer_resolution::unresolvable;
  /// With a figure (resolved, not_converged): its unit's power (idle included) with the
  /// half-width of its 95% interval, and what follows from it over the layer's mean time.
  /// A merged layer has none: the readings could not tell it from its neighbours, so the one
  /// figure is its group's (in_context_result::groups), never each member's.
  double power_w = 0, power_ci95_w = 0, energy_j = 0, energy_ci95_j = 0;
  double dynamic_power_w = 0, dynamic_energy_j = 0;
  std::size_t readings = 0;  ///< the sensor readings its unit was estimated from
  bool edge_limited = false; ///< shorter than 0.15 sensor windows: where the window edges fall moves its figure
  std::string merged_with;   ///< merged: the other layers of its unit, comma-separated
  /// On a simulated board: what its model drew over this layer's own runs (modelled_truth.hpp).
  std::optional<platform::modelled_power> sim;
  bool has_figure() const {
    return resolution == layer_resolution::resolved || resolution == layer_resolution::not_converged;
  }
};

/// Layers the readings could not tell apart, measured as one: the group's figures over the
/// members' summed mean time. Reported once, as a row of its own naming its members.
struct in_context_group {
  std::vector<std::size_t> members;  ///< layer indices, in order
  std::string name;                  ///< the members' names joined by " + "
  std::string members_text;          ///< the members' names, comma-separated
  double latency_mean_s = 0;         ///< the members' mean times added up
  double power_w = 0, power_ci95_w = 0, energy_j = 0, energy_ci95_j = 0;
  double dynamic_power_w = 0, dynamic_energy_j = 0;
  std::size_t readings = 0;
  bool edge_limited = false;
  std::optional<platform::modelled_power> sim;  ///< over the members' runs, on a simulated board
};

/// The sensor's update clock as fitted from its changes.
struct in_context_sensor {
  double nominal_period_s = 0;
  double poll_period_s = 0;  ///< 0: unknown
  double period_s = 0;
  double lateness_median_s = 0, lateness_iqr_s = 0, phase_uncertainty_s = 0;
  std::size_t changes = 0, readings = 0;
};

/// The time between runs: the pauses, and what the board drew there.
struct in_context_between_runs {
  std::size_t pauses = 0;
  double paused_s = 0;        ///< of the window
  double power_w = 0, power_ci95_w = 0;  ///< NaN: not estimated
  std::size_t readings = 0;
  std::optional<double> window_power_w;  ///< the window's mean power, pauses included
};

/// The estimator's diagnostics, for the end-to-end row.
struct in_context_diagnostics {
  std::string unresolvable;  ///< why no layer has a figure (empty: they may)
  std::size_t runs = 0, readings = 0, units = 0, columns = 0, merges = 0;
  double condition_number = 0;  ///< NaN or infinite: not known
  double residual_rms_w = 0, phase_lock = 0;
  bool jitter = false;          ///< the runs locked in phase with the sensor and were paused at random
  std::size_t targeted_runs = 0, checks = 0, failed_refits = 0;
  double attributed_energy_j = 0, attributed_energy_ci95_j = 0;
  double target_half_width = 0;
  /// Blocks of runs whose residuals' scatter also bounds the intervals (0: too few to count;
  /// block_covariance.hpp), and how far every reading was moved both ways to widen them for
  /// where the sensor's window edges fall (0: not widened).
  std::size_t blocks = 0;
  double placement_shift_s = 0;
  /// Where the runs fit best with every reading's window end moved this far from where its update
  /// was seen (stats/window_offset.hpp; reported, not applied: a large one says the windows may
  /// not end where their updates are seen, or the model misses something; 0 on a GPU).
  double window_offset_s = 0;
  /// The sensor's update clock could not be fitted (its changes follow no regular clock); a
  /// sensor read slower than it updates is not this (no longer window helps it).
  bool sensor_unfitted = false;
  std::size_t sensor_retries = 0;  ///< windows measured again for an unfitted sensor clock
  in_context_sensor sensor;
  /// The sensor's period (the fit's), window and delay the readings were placed with, and where
  /// each came from (card, fit, nominal).
  sensor_facts facts;
  in_context_between_runs between_runs;
  /// On a GPU with NVML's energy counter (docs/protocols/in_context.md, "On a GPU"): the counter's
  /// energy over the runs, which the estimate was held to, against the layers'.
  std::optional<stats::gpu_counter_check> counter;
};

struct in_context_result {
  loop_result window;  ///< the end-to-end runs as one window (its power, latency)
  std::vector<in_context_layer> layers;  ///< one per layer, in layer order
  std::vector<in_context_group> groups;  ///< the merged layers' groups, in layer order
  in_context_diagnostics estimator;
  /// Set when the backend cannot time its ops one by one: nothing was measured.
  std::optional<std::string> unsupported;
  double sum_energy_j = 0, sum_energy_ci95_j = 0;
  bool estimated = false;  ///< false: no figure per layer (why in estimator.unresolvable)
  /// On a simulated board: what its model drew over the runs themselves (every layer's time).
  std::optional<platform::modelled_power> runs_sim;
};

/// The end-to-end row's power over the runs alone: the mean over a window of `window_s` that held
/// `paused_s` of pauses at `between_runs_w`, those taken out (`window_w` itself when nothing
/// was paused or the pauses' power is unknown).
double power_over_runs(double window_w, double window_s, double paused_s, double between_runs_w);

/// The end-to-end row's flags: `paused_between_runs` (the runs paused between them: power_w and
/// energy_j are the runs' own, the pauses taken out at their measured power, but the rails'
/// means are the whole window's), `sensor_clock_lost` (the sensor's changes stopped following
/// its clock: the layers' figures come from the readings placed before, and the runs stopped there).
std::vector<std::string> in_context_flags(const in_context_result& r);

/// The protocol run, and run again with a window twice as long (up to plan.sensor_retries
/// times) while the sensor's clock could not be fitted; each window not kept stays on the
/// point's timeline. What layers' kinds call.
in_context_result measure_in_context(const point_context& ctx, workloads::layer_backend& be, const models::network& net,
                                     const std::vector<models::layer>& layers, std::optional<double> idle_w,
                                     in_context_plan plan);

/// The protocol over `be`, prepared with the whole of `net`. `idle_w` is the board's idle
/// baseline under the point's settings (the estimator's known term). One object, one run:
/// operator() goes through its steps (start, then runs with their pauses and checks, then the
/// last readings, the runs' power, each layer's figures).
class in_context_protocol {
 public:
  in_context_protocol(const point_context& ctx, workloads::layer_backend& be, const models::network& net,
                      const std::vector<models::layer>& layers, std::optional<double> idle_w, const in_context_plan& plan);
  in_context_result operator()();

 private:
  enum class check { decide, locked, refit_failed };
  enum class ran { ok, unsupported, span_limit };

  void start();
  void pause_before(std::size_t run);
  ran run_network(std::size_t run);
  /// A GPU backend's run, its ops timed by their kernels; empty (with why) where it cannot be.
  std::vector<workloads::op_span> gpu_run_ops(std::string& why);
  /// On a GPU: the counter's energy over the runs as the estimate's exact constraint.
  void hold_to_counter();
  /// The sensor's period, window and delay to start from (sensor_facts.hpp).
  void resolve_sensor_facts();
  /// The update period from the total's changes over the polls before now (0: not found): NVML's
  /// and L4T r32's drivers state none.
  double period_from_polls() const;
  /// The sampler at its fastest tick for the rest of the runs, where it is not yet (a poll too
  /// slow for the sensor); false where it cannot be sped up.
  bool speed_up_polls(std::int64_t now_ns);
  /// The sampler's tick as it was before speed_up_polls.
  void restore_polls();
  /// How long a stretch each reading averages (ns): the card's window, else the fitted period.
  std::int64_t reading_window_ns() const;
  /// Readings at their windows' ends: each moved back by the sensor's delay.
  std::vector<stats::power_reading> placed(std::vector<stats::power_reading> readings) const;
  /// The final estimate's intervals widened for where the readings' windows fall.
  void widen_for_window_edges();
  /// Every unit's interval at least k_model_floor of its dynamic power.
  void widen_for_parts();
  /// On a GPU: the layers' energy against the counter's.
  void finish_gpu_estimate();
  bool go_on_after_check(std::int64_t now, double elapsed_s);
  void log_check(std::int64_t now, double elapsed_s) const;
  check solve(std::int64_t until_ns, double elapsed_s, double horizon_s, bool may_lock);
  bool settled_except_hopeless() const;
  bool edge_limited(double seconds) const;
  const std::vector<std::pair<std::int64_t, double>>& read_series(std::int64_t to_ns);
  void finish();
  void measure_runs_power();
  void figure_layers();
  template <typename Figures>
  void put_unit_figures(Figures& f, const stats::layer_unit& u, double seconds) const;
  in_context_group group_of(const stats::layer_unit& u) const;
  void add_up_layers();
  void report_diagnostics();

  const point_context& ctx_;
  workloads::layer_backend& be_;
  const models::network& net_;
  const std::vector<models::layer>& layers_;
  std::optional<double> idle_w_;
  in_context_plan plan_;
  clock& clock_;

  const telemetry::sample_source* source_;
  std::optional<int> total_;
  /// NVML's power reading is the total (the dgpu board): a GPU backend's ops may be timed by
  /// their kernels; and its energy counter channel, where it has one.
  bool nvml_ = false;
  std::optional<int> energy_;
  double nominal_s_ = 0;
  sensor_facts facts_;
  std::int64_t delay_ns_ = 0;
  bool sped_up_ = false;
  double tick_before_ = 0;
  double placement_shift_ns_ = 0;  ///< widen_for_window_edges' shift (0: none)
  stats::window_offset_fit offset_;
  std::int64_t window_ns_ = 0;
  std::map<int, std::string> kernels_;
  std::vector<int> parts_;  ///< the layer of each op when a layer has several (empty: layers are the parts)
  std::optional<stats::layer_power_estimator> est_;
  /// The total power channel's samples, read a slice at a time as the runs go on.
  std::vector<std::pair<std::int64_t, double>> series_;
  std::int64_t series_next_ns_ = 0;
  std::vector<std::vector<double>> times_;  ///< each layer's time in each run
  modelled_truth truth_;  ///< each layer's runs as the simulator modelled them (simulated boards)
  std::mt19937_64 rng_;
  stats::run_offsets offsets_;
  std::vector<stats::edge_target> targets_;  ///< where the next runs' updates should fall
  stats::sensor_update_fit fit_;
  stats::layer_power_result res_;
  std::string unresolvable_;
  stop_reason stop_ = stop_reason::max_time;
  bool jitter_ = false;
  std::size_t spans_kept_ = 0, checks_ = 0, merges_ = 0, targeted_runs_ = 0, failed_refits_ = 0;
  std::int64_t next_check_ = 0;
  std::int64_t run_seen_ns_ = 0;  ///< when the last run's ops were seen to end (its checks' "now")
  /// The pauses between runs and the runs themselves, for the end-to-end row's power over the runs alone.
  std::vector<std::pair<std::int64_t, std::int64_t>> pauses_, run_spans_;
  in_context_result out_;
};

}  // namespace jetperf::measure
