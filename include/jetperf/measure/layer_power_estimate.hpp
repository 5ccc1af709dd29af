#pragma once
// Per-layer power of a network running end to end, from a power sensor far slower than its layers
// (equivalent-time sampling, as sampling oscilloscopes do).
//
// Each sensor reading is the mean power over its averaging window, so it is a known linear
// combination of the powers of what ran during that window: reading k over (e_k - W, e_k] is
//   v_k = idle + sum_u (overlap(k, u) / W) * d_u + noise,
// where d_u is unit u's dynamic power (its power above the idle baseline, which is known: the
// board draws idle between runs). Runs fall at varying phases against the sensor's updates, so
// thousands of readings give an overdetermined system in the d_u, solved as non-negative least
// squares (a layer does not draw less than the idle board). The 95% intervals come from the
// residuals (sigma^2 (A'A)^-1), the condition number from the column-scaled A'A.
//
// Time is attributed without gaps: within a run, a layer owns the time from its start to the
// next layer's start (the framework's step between ops belongs to the op before it), the last one
// up to the run's end; outside the runs the board is at idle.
//
// A unit is one layer, or adjacent layers merged when the readings cannot tell them apart (a
// layer of 20 us inside a 20 ms window needs very many window edges to fall inside it): the
// estimate says which were merged, and never gives a merged layer a number of its own.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace jetperf::measure {

/// One layer's part of one end-to-end run, on CLOCK_MONOTONIC.
struct layer_span {
  int layer = 0;  ///< index into the network's layers at the job's granularity
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

/// A sensor reading: the mean power over (end_ns - window, end_ns].
struct power_reading {
  std::int64_t end_ns = 0;
  double watts = 0;
};

/// Readings per unknown before an estimate can be converged (or its intervals acted on).
constexpr std::size_t k_min_readings_per_unit = 5;

struct layer_estimate_options {
  std::int64_t window_ns = 0;  ///< the sensor's averaging window
  double idle_w = 0;           ///< the board's power outside the runs (the known term)
  double target_rel = 0.05;    ///< each unit's energy interval: relative half-width wanted
  /// A unit whose interval cannot get narrower than this in the time left is not resolved: it
  /// is merged. (Between the two, a unit keeps its own honest, wider interval: merging layers of
  /// different power biases their neighbours, so it is kept for those with no usable number.)
  double resolvable_rel = 0.25;
};

struct layer_unit {
  std::vector<int> layers;     ///< more than one: merged, the readings could not separate them
  double power_w = 0;          ///< mean power while the unit runs (idle included)
  double power_ci95_w = 0;     ///< half-width of its 95% interval (infinite: not estimable)
  double duration_s = 0;       ///< mean time per run
  double energy_j = 0;         ///< per run
  double energy_ci95_j = 0;
  std::size_t readings = 0;    ///< readings whose window overlapped it
  bool at_bound = false;       ///< held at the idle baseline by the non-negativity constraint
  /// energy_ci95_j / energy_j (infinite when unknown).
  double rel_half_width() const;
};

struct layer_power_result {
  std::vector<layer_unit> units;  ///< in layer order; every layer that ran is in exactly one
  std::size_t readings = 0;       ///< readings that overlapped a run (the rows of the system)
  std::size_t runs = 0;
  double condition_number = 0;    ///< of the column-scaled design (infinite: singular)
  double residual_rms_w = 0;
  double sum_energy_j = 0;        ///< the units' energies per run, added up
  double sum_energy_ci95_j = 0;   ///< its interval, with the units' covariances
  /// Mean resultant length of the runs' start phases against the window (0: spread evenly,
  /// 1: every run starts at the same phase of the sensor, so no new information accrues).
  double phase_lock = 0;
  /// Why nothing can be estimated (no readings overlap the runs, ...); empty otherwise.
  std::string unresolvable;
  /// Every unit's energy interval is within the target, from at least k_min_readings_per_unit
  /// readings per unit.
  bool converged = false;
};

class layer_power_estimator {
 public:
  layer_power_estimator(std::size_t layer_count, layer_estimate_options options);

  /// One end-to-end run's layers in order (layers that run nothing, an alias, are left out).
  void add_run(const std::vector<layer_span>& spans);
  /// Readings in time order.
  void add_reading(const power_reading& r);
  /// Time outside the runs when the board was not idle (the caller's own work between runs):
  /// readings whose window overlaps it are left out. In time order.
  void exclude(std::int64_t from_ns, std::int64_t to_ns) { excluded_.emplace_back(from_ns, to_ns); }
  /// Replaces every reading (a refit of the sensor's update times places them all anew), with
  /// the fitted window when given (> 0).
  void set_readings(std::vector<power_reading> readings, std::int64_t window_ns = 0) {
    readings_ = std::move(readings);
    if (window_ns > 0) options_.window_ns = window_ns;
  }

  /// The estimate with the current units.
  layer_power_result solve() const;
  /// Merges the units that cannot get within resolvable_rel by `max_time_s` at the rate the
  /// intervals have shrunk over `elapsed_s` (and those the design cannot separate at all), each
  /// with the neighbour it is most confounded with. Returns how many merges were made; with
  /// `result`, also the estimate with the units that remain (as solve(), without building the
  /// system a second time when nothing was merged).
  std::size_t merge_unresolvable(double elapsed_s, double max_time_s, layer_power_result* result = nullptr);

  /// layer_power_result::phase_lock of the runs so far.
  double phase_lock() const;
  std::size_t runs() const { return runs_.size(); }
  std::size_t readings() const { return readings_.size(); }
  const layer_estimate_options& options() const { return options_; }

 private:
  struct run {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
    std::vector<layer_span> spans;  ///< gap-free: each runs to the next one's start
  };
  struct system;
  system build() const;
  layer_power_result solve(const system& s) const;
  /// Merges unit `u` with its neighbour `v` (adjacent in layer order).
  void merge(std::size_t u, std::size_t v);

  std::size_t layer_count_;
  layer_estimate_options options_;
  std::vector<run> runs_;
  std::vector<power_reading> readings_;
  std::vector<std::pair<std::int64_t, std::int64_t>> excluded_;
  std::vector<int> unit_of_layer_;    ///< -1: the layer never ran
  std::vector<std::vector<int>> units_;
};

}  // namespace jetperf::measure
