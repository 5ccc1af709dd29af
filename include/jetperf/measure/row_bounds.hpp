#pragma once
// The physical bounds (physical_bounds.hpp) applied to a point's rows, whatever the kind: the job
// runner checks every measured point here before settling its status, so a kind's figures are
// checked by the columns it declares (every W and J column, the rails, the board-setting
// columns), and the `implausible` column (a trailing column of every kind) names the bounds a row
// broke, {bound: "figure value > limit", ...}. A kind with figures of its own to check (the
// sensor card's channels, in_context's layer sum) adds them with put_implausible.
#include <optional>
#include <string>
#include <vector>

#include <jetperf/common/columns.hpp>
#include <jetperf/common/row.hpp>
#include <jetperf/measure/physical_bounds.hpp>
#include <jetperf/measure/point_context.hpp>

namespace jetperf::measure {

/// What a row's figures are checked against, beyond zero.
struct row_limits {
  clock_limits clocks;
  /// The board's input rail, where its total power is one (VDD_IN, Thor's VIN); nullopt where
  /// the total is the rails' sum.
  std::optional<std::string> input_rail;
};

/// The limits of the point's board: its offered clocks (none without a board, or when it cannot
/// say) and its input rail (from the telemetry's total channel).
row_limits limits_of(const point_context& ctx);

/// The bounds the row's own values break: its W and J columns of `columns` (the differences
/// against idle, dynamic_power_w and dynamic_energy_j, aside) and its rails at least zero, each
/// rail no more than power_w and the sub-rails no more than the input rail, and its setting
/// columns within `limits.clocks`.
std::vector<bound_violation> check_row(const row& metrics, const std::vector<column>& columns,
                                       const row_limits& limits);

/// Adds `found` to the row's `implausible` column ({bound: texts joined by "; "}); nothing when
/// `found` is empty.
void put_implausible(row& metrics, const std::vector<bound_violation>& found);

/// The row's `implausible` column holds a bound.
bool is_implausible(const row& metrics);

/// check_row over the point's own values and each item of the table's row list (its own values
/// only: the point's are checked once), put_implausible on each.
void apply_physical_bounds(row& metrics, const column_table& table, const row_limits& limits);

}  // namespace jetperf::measure
