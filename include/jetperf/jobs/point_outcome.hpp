#pragma once
// A point that ran is ok only when its rows hold their kind's main metrics (the columns the
// kind's table marks `main`: its time and its power). One that lacks them says why in its
// status, so that no row, verdict or job state reads as a success over missing data:
//   no_power      a power main metric is empty (no sensor reading covered the window);
//   unresolvable  in_context could not give a layer a power of its own (layer_resolution says so);
//   incomplete    another main metric is empty;
//   implausible   it has them, but a figure broke a physical bound (its `implausible` column,
//                 measure/row_bounds.hpp): a measurement gone wrong, not a result.
#include <string>

#include <jetperf/common/columns.hpp>
#include <jetperf/common/row.hpp>

namespace jetperf::jobs {

/// The status of a point the kind measured ("ok" as it returned it) after looking at `metrics`:
/// each of its rows (the point's own values, and each item of the table's row list over them)
/// missing a main metric, or holding a broken bound, gets the status that says why, an item in
/// its own "status" key; the point's status is the first such row's. Items that ran nothing by design (an alias layer,
/// layer_resolution runs_nothing) are not missing anything.
std::string settle_status(const column_table& table, row& metrics);

}  // namespace jetperf::jobs
