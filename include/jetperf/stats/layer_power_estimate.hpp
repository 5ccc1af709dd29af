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
// up to the run's end; outside the runs the board is at idle, or, with between_runs_column, at a
// power of its own that the readings measure (see layer_estimate_options).
//
// A unit is one layer, or adjacent layers merged when the readings cannot tell them apart (a
// layer of 20 us inside a 20 ms window needs very many window edges to fall inside it): the
// estimate says which were merged, and never gives a merged layer a number of its own.
//
// A layer's power need not be constant: a residual block's convolutions, normalisations and
// activations draw different powers, and a model with one power per block leaves that in the
// residuals (39 mW on the simulated Orin's resnet50 blocks, against 21 mW with one per op), which
// widens every interval. So a layer may be given as parts (its ops): the system has a column per
// part, or per run of short parts within one layer, and each layer's power is its parts' powers
// weighted by their times. Parts a layer's readings cannot tell apart only make their own
// powers uncertain, not the layer's: their errors cancel in the weighted sum.
//
// Whether a unit can be told apart by a later time is judged from the design, not from how its
// interval has shrunk so far: the readings still to come fall at random phases of the runs, so
// each adds, on average, E[a a'] over a window ending anywhere in the runs' mean cycle (a the
// row's overlaps). The projected covariance is sigma^2 (A'A + m E[a a'])^-1 for m more readings.
// Early intervals rest on the few window edges that happened to fall inside each layer, and
// extrapolating them (as 1/sqrt(time)) misjudged both ways: blocks with unlucky phases looked
// hopeless, and short layers whose neighbours were still unresolved looked slower than they were.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace jetperf::stats {

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

/// Readings beyond the unknowns before an estimate can be converged, or acted on (merges, a
/// projected stop): the residual variance every interval rests on comes from these. Below 20 it
/// is itself too uncertain to act on (its 95% range spans a factor of 3); above, the intervals
/// take Student's t for what uncertainty is left (stats/student_t.hpp).
constexpr std::size_t k_min_residual_dof = 20;

/// Runs before an estimate can be converged, or stopped as settled: with fewer, nothing is known of
/// how the runs spread (block_covariance.hpp), which is what moves a layer's figure from job to job.
constexpr std::size_t k_min_runs = 6;

struct layer_estimate_options {
  std::int64_t window_ns = 0;  ///< the sensor's averaging window
  double idle_w = 0;           ///< the board's power outside the runs (the known term)
  double target_rel = 0.05;    ///< each unit's energy interval: relative half-width wanted
  /// A unit whose interval cannot get narrower than this in the time left is not resolved: it
  /// is merged. (Between the two, a unit keeps its own honest, wider interval: merging layers of
  /// different power biases their neighbours, so it is kept for those with no usable number.)
  double resolvable_rel = 0.25;
  /// Relative half-widths are of each unit's dynamic power (its power less idle_w, at least 1% of
  /// its power), not of its whole power: what a layer itself draws is what its figure is for, and
  /// a target of 5% of a board's whole power left a layer's own at +-30%.
  bool relative_to_dynamic = false;
  /// With parts: a part shorter than this (in its first run) shares a column with the next parts
  /// of its layer until they are as long together (a column per op of a few microseconds only
  /// spends readings; the layer's own power is what is reported).
  std::int64_t min_part_ns = 0;
  /// The time between runs (from a run's end to the next one's start, and after the last) is an
  /// unknown of its own instead of the idle term, and the readings wholly between two runs are
  /// rows too: a board that pauses for a few milliseconds between runs need not fall to the idle
  /// baseline of a quarter second's rest (its cores' deeper idle states take longer to enter).
  /// Readings whose window starts before the first run are then left out (what ran before it is
  /// not modelled).
  bool between_runs_column = false;
};

struct layer_unit {
  std::vector<int> layers;     ///< more than one: merged, the readings could not separate them
  std::size_t columns = 1;     ///< the system's columns it is the sum of (its parts, grouped)
  double power_w = 0;          ///< mean power while the unit runs (idle included)
  double power_ci95_w = 0;     ///< half-width of its 95% interval (infinite: not estimable)
  /// What the half-width is made of: the residuals' interval, the runs' (blocks of runs), and
  /// what placing the readings' windows adds (widen_for_placement; 0 before).
  double residuals_ci95_w = 0, runs_ci95_w = 0, placement_w = 0;
  double duration_s = 0;       ///< mean time per run
  /// What its relative half-width is of (layer_estimate_options::relative_to_dynamic): its power,
  /// or its dynamic power (0: its energy's ratio is taken).
  double reference_w = 0;
  double energy_j = 0;         ///< per run
  double energy_ci95_j = 0;
  std::size_t readings = 0;    ///< readings whose window overlapped it (the most of its columns)
  bool at_bound = false;       ///< held at the idle baseline by the non-negativity constraint (every column)
  /// The relative half-width expected at the horizon of the last merge_unresolvable, once the
  /// readings still to come are in (rel_half_width() when none are to come; NaN when unknown:
  /// the design cannot be judged yet).
  double projected_rel = std::numeric_limits<double>::quiet_NaN();
  /// power_ci95_w / reference_w (energy_ci95_j / energy_j without one; infinite when unknown).
  double rel_half_width() const;
};

struct layer_power_result {
  std::vector<layer_unit> units;  ///< in layer order; every layer that ran is in exactly one
  std::size_t readings = 0;       ///< readings that overlapped a run (the rows of the system)
  std::size_t residual_dof = 0;   ///< readings beyond the unknowns (0 when not more)
  /// Blocks of runs whose residuals' scatter also bounds each interval (0: too few, the usual
  /// interval alone; block_covariance.hpp).
  std::size_t blocks = 0;
  std::size_t columns = 0;        ///< the unknowns: the units' parts, as grouped, and the time between runs
  std::size_t runs = 0;
  double condition_number = 0;    ///< of the column-scaled design (infinite: singular)
  double residual_rms_w = 0;
  double sum_energy_j = 0;        ///< the units' energies per run, added up
  double sum_energy_ci95_j = 0;   ///< its interval, with the units' covariances
  /// With between_runs_column: the board's power between runs (idle included) and the half-width
  /// of its 95% interval (NaN without the column or an estimate), and the readings that
  /// overlapped that time.
  double between_runs_power_w = std::numeric_limits<double>::quiet_NaN();
  double between_runs_ci95_w = std::numeric_limits<double>::quiet_NaN();
  std::size_t between_runs_readings = 0;
  /// Mean resultant length of the runs' start phases against the window (0: spread evenly,
  /// 1: every run starts at the same phase of the sensor, so no new information accrues).
  double phase_lock = 0;
  /// With an exact energy (layer_power_estimator::set_exact_energy) that the estimate was held to:
  /// the unconstrained estimate's energy over its interval minus the exact one (J; NaN without
  /// one, or when the design was singular and the estimate could not be held to it).
  double exact_energy_gap_j = std::numeric_limits<double>::quiet_NaN();
  /// Why nothing can be estimated (no readings overlap the runs, ...); empty otherwise.
  std::string unresolvable;
  /// Every unit's energy interval is within the target, with at least k_min_residual_dof
  /// readings beyond the unknowns.
  bool converged = false;
};

/// The power a relative half-width is of, for a unit drawing `power_w` (options' idle_w and
/// relative_to_dynamic).
double relative_reference_w(const layer_estimate_options& o, double power_w);

class layer_power_estimator {
 public:
  layer_power_estimator(std::size_t layer_count, layer_estimate_options options);
  /// Runs given by parts: part p belongs to layer `layer_of_part[p]` (-1: to none; its spans are
  /// not to be given). Each layer's parts must be consecutive in every run.
  layer_power_estimator(std::size_t layer_count, layer_estimate_options options, std::vector<int> layer_of_part);

  /// One end-to-end run's layers (parts, when given by parts) in order (layers that run nothing,
  /// an alias, are left out).
  void add_run(const std::vector<layer_span>& spans);
  /// Readings in time order.
  void add_reading(const power_reading& r);
  /// The board's energy over (from_ns, to_ns] known exactly (an energy counter's difference, J):
  /// the solution is held to it as an equality constraint (x + K (e - c'x), K = M c / c'M c with
  /// M the unknowns' covariance), which narrows the intervals along c and adds one residual
  /// degree of freedom (covariance M - M c c' M / c'M c, sigma^2 from the constrained
  /// residuals). The interval's time outside the runs counts as the between-runs unknown with
  /// between_runs_column, else at the idle term. One interval: a later call replaces it.
  void set_exact_energy(std::int64_t from_ns, std::int64_t to_ns, double joules);
  /// The energy over (from_ns, to_ns] that `result` gives (J): each layer at its unit's power for
  /// its time there (as attributed: each part up to the next one's start), the rest of the
  /// interval between runs at their estimated power (idle without the column), split as
  /// (layers, between runs).
  std::pair<double, double> energy_within(std::int64_t from_ns, std::int64_t to_ns, const layer_power_result& result) const;
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
  /// How well the current units fit the readings, without the intervals: the least-squares
  /// residual sum (W^2), its rows and its spare rows.
  struct fit_quality {
    double rss = 0;
    std::size_t rows = 0, residual_dof = 0;
  };
  fit_quality fit() const;
  /// Merges the units that cannot get within resolvable_rel by `horizon_s` (the readings of
  /// `elapsed_s` so far, and as many again per second until the horizon, at random phases), and
  /// those that even then could not be told from a neighbour, each with the neighbour it is most
  /// confounded with. Nothing is merged with fewer than k_min_residual_dof spare readings.
  /// Returns how many merges were made; with `result`, also the estimate with the units that
  /// remain (as solve(), without building the system a second time when nothing was merged),
  /// each with its projected_rel at the horizon.
  std::size_t merge_unresolvable(double elapsed_s, double horizon_s, layer_power_result* result = nullptr);

  /// layer_power_result::phase_lock of the runs so far.
  double phase_lock() const;
  /// Whether the runs' start phases are locked: a phase_lock above 0.5 that the runs could not
  /// have drawn at random (Rayleigh's test at 0.1%: n R^2 > 6.9). A handful of runs at random
  /// phases often shows 0.5 (1/sqrt(n) is typical), and a check that took them for locked
  /// decided nothing.
  bool phase_locked() const;
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
  /// The exact energy's row and right-hand side into `s` (whose unknowns are set).
  void exact_row(system& s) const;
  /// E[a a'] (unknowns x unknowns) of one reading whose window ends at a random phase of the runs'
  /// mean cycle: the information each reading still to come adds on average.
  std::vector<double> expected_information() const;
  /// Unknowns of the system: the columns (parts), and the time between runs when it has one (last).
  std::size_t unknowns() const { return columns_.size() + (options_.between_runs_column ? 1 : 0); }
  layer_power_result solve(const system& s) const;
  /// Merges column `u` with its neighbour `v` (adjacent in part order), and their units.
  void merge(std::size_t u, std::size_t v);
  /// Merges the unit of column `u` with the next unit (relabels: the columns stay).
  void merge_units(std::size_t u);
  /// The layers of a run of columns [from, to).
  std::vector<int> layers_of(std::size_t from, std::size_t to) const;
  /// The first column of each unit, and the end.
  std::vector<std::size_t> unit_bounds() const;
  /// column_of_part_ from columns_.
  void renumber();
  /// Each layer in one unit and each unit one run of columns: units that share a layer, and any
  /// between two columns of one unit, are made one (a layer in two units had a figure of its own
  /// beside its group's, its energy counted twice).
  void keep_units_whole();
  /// `unit`'s relative half-width once `to_come` more readings are in, by the trend of its own
  /// interval since it had half the `rows` or fewer (NaN: no such history, or a trend no slower
  /// than the model's 1/sqrt(readings)).
  double trend_projection(const layer_unit& unit, std::size_t rows, double to_come) const;
  /// Each unit's projected_rel (`projected` from the last merge pass, else its trend), and its
  /// interval into history_.
  void record_projections(layer_power_result& result, const std::vector<double>& projected, std::size_t rows,
                          double to_come);

  std::size_t layer_count_;
  std::vector<int> layer_of_part_;  ///< identity when the runs are given by layers
  bool by_parts_ = false;
  layer_estimate_options options_;
  std::vector<run> runs_;
  std::vector<power_reading> readings_;
  std::vector<std::pair<std::int64_t, std::int64_t>> excluded_;
  // A column is a run of parts (within one layer unless merged as dependent), a unit a run of
  // columns (one layer, or layers merged): the reported figures are the units'.
  std::vector<int> column_of_part_;         ///< -1: the part never ran
  std::vector<std::vector<int>> columns_;  ///< each column's parts, in part order
  std::vector<int> unit_of_column_;        ///< equal for a unit's columns (which are adjacent)
  int next_label_ = 0;
  /// Each unit's (readings, relative half-width) at the merge_unresolvable calls that gave a
  /// result, a quarter more readings apart.
  std::map<std::vector<int>, std::vector<std::pair<std::size_t, double>>> history_;
  struct exact_energy {
    std::int64_t from_ns = 0, to_ns = 0;
    double joules = 0;
  };
  std::vector<exact_energy> exact_;  ///< at most one
};

}  // namespace jetperf::stats
