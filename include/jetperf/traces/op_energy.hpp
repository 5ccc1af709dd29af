#pragma once
// Energy per op and per kernel of an aligned trace: each event's interval is moved onto the
// daemon's timeline (t + offset) and the job's stored power samples, joined by straight lines,
// are integrated over exactly that interval (jetperf::interval_mean). Rows are summed per name:
// per op key as key_averages() groups them (an op's interval holds its children, so nested
// rows overlap and do not add up), per top-level op (the roots of each thread's op tree), and
// per device event name (kernels, copies, sets; overlapping kernels on several streams each get
// the whole board's power over their interval). Op rows also carry their self time and self
// energy (each interval less its children's), which add up where inclusive figures overlap.
//
// Uncertainty of one interval [a, b] (T = b - a, tau = the sensor's update period, P the total
// power series, u_off the alignment's uncertainty):
//   sampling:  u_s = sum over both ends e of  range(P within e +- tau) x min(T, tau) / 2
//              (the sensor cannot place a power change within a period: at each end up to half
//              the period's swing times the overlap may belong to the neighbour instead);
//   alignment: d = P(b) - P(a), the energy's derivative with respect to a shift of the interval,
//              so a shift of u_off moves the energy by |d| x u_off.
// Per row: u = sqrt(sum u_s^2) (independent between intervals) + |sum d| x u_off (one offset
// for all). An interval shorter than tau is counted in `short_intervals` (its energy rests on
// interpolation only), and one outside the samples' span in `outside_samples` (power held flat).
//
// Each table keeps its `max_rows` largest rows; the rest are summed into one last row named
// "(N other names)" with `folded_names` = N (a trace of 100 000 distinct names answered one row
// per name: 9 KB of the daemon's memory each, a 100 MB answer). Their uncertainties add up as
// the worst case (the sum), the bound of a row that mixes names.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/common/piecewise_linear.hpp>
#include <jetperf/traces/op_tree.hpp>
#include <jetperf/traces/trace.hpp>
#include <jetperf/traces/trace_alignment.hpp>

namespace jetperf::traces {

struct power_inputs {
  std::optional<time_series> total;            ///< module total power (W) on CLOCK_MONOTONIC
  std::map<std::string, time_series> rails;    ///< per rail (W), by rail name
  std::int64_t sensor_period_ns = 0;           ///< how often the readings change; 0: from the total's spacing
};

struct energy_row {
  std::string name;
  std::size_t count = 0;
  double time_s = 0;
  std::optional<double> energy_j;       ///< over the total power; absent without it
  std::optional<double> power_w;        ///< energy_j / time_s
  std::optional<double> uncertainty_j;  ///< sampling and alignment, see above
  std::map<std::string, double> rail_energy_j;
  std::size_t short_intervals = 0;      ///< shorter than the sensor period
  std::size_t outside_samples = 0;      ///< not within the samples' span
  std::size_t folded_names = 0;         ///< the names summed into this row; 0: a row of one name
  /// Op rows: the time and energy of the op's intervals less its children's; over one thread
  /// the self energies of all rows add up to the energy of the top-level ops' intervals. Absent
  /// in the top-level and kernel tables; self_energy_j absent without power.
  std::optional<double> self_time_s, self_energy_j;
  bool label = false;  ///< a record_function label (user_annotation), not an op
};

struct energy_table {
  std::vector<energy_row> ops;        ///< every host op and annotation, by key (op_key)
  std::vector<energy_row> top_level;  ///< roots of the op forest, by key
  std::vector<energy_row> kernels;    ///< device events, by name
  std::int64_t sensor_period_ns = 0;  ///< the period the uncertainties used
};

/// Rows one table keeps before it folds the rest (a real model's trace has a few hundred names).
constexpr std::size_t k_energy_rows_kept = 1000;

/// Rows of each table by energy (time without power), largest first, ties by name; at most
/// max_rows + 1 of them (the last the folded rest).
energy_table attribute_energy(const trace& t, const op_tree& tree, const alignment& a, const power_inputs& power,
                              std::size_t max_rows = k_energy_rows_kept);

}  // namespace jetperf::traces
