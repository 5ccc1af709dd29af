#pragma once
// A job kind's declared result columns: every output of a job (JSON results, CSV, the client's
// table, GET /v1/kinds) reads the same table, so a column is named, typed and described once.
// The rows a kind stores are keyed by these names; the table's order is the output's order.
#include <string>
#include <vector>

namespace jetperf {

enum class column_type { integer, number, boolean, text, list, object };
/// parameter: what the point was asked to run (its settings, its identity); metric: what was measured.
enum class column_role { parameter, metric };

struct column {
  std::string name;
  column_type type = column_type::number;
  column_role role = column_role::metric;
  std::string unit;  ///< "s", "W", "J", "Hz", "kHz", "GFLOP/s", ... ("" = none)
  std::string description;
  bool shown = false;  ///< in the client's default table (identity and headline metrics)
  /// A main metric (a kind's time and power): a row that ran without it is not ok, its status
  /// says why (jobs/point_outcome.hpp).
  bool main = false;
  /// Where the point's window holds the spread behind this metric's value: the column of its
  /// runs' standard deviation and the column of their count ("" = none). `compare A B` tests a
  /// pair of single points on them (a Welch test), as it tests repeats on their values.
  std::string sd_column = "";
  std::string count_column = "";
};

struct column_table {
  /// The kind's own columns, in output order (between the leading and trailing common ones).
  std::vector<column> columns;
  /// Whether the kind measures power: then one "rail_<NAME>_w" column per board rail follows.
  bool rails = false;
  /// When set, the metric of a point that holds its rows (a multi-DNN mapping's network stages):
  /// the point gives one row per item, each item's values over the point's own. A point without
  /// it (skipped, failed) gives one row.
  std::string row_list;
};

const char* to_string(column_type t);
const char* to_string(column_role r);

/// index, status: every row starts with them.
const std::vector<column>& leading_columns();
/// window_start_ns, window_end_ns, reason (why a point was skipped), error (why it failed),
/// implausible (the physical bounds it broke): every row ends with them.
const std::vector<column>& trailing_columns();

/// "rail_<NAME>_w": the one naming of a rail's mean power, for every kind.
std::string rail_column_name(const std::string& rail);
/// The column of one rail's mean power.
column rail_column(const std::string& rail);
/// The rail name of "rail_<NAME>_w", or "" when `column_name` is not a rail column.
std::string rail_of_column(const std::string& column_name);

/// Every column of a job of this kind on a board with `rails`, in output order:
/// leading, the kind's own, one per rail (when the kind has rails), trailing.
std::vector<column> output_columns(const column_table& table, const std::vector<std::string>& rails);

/// The declared column named `name`, or nullptr.
const column* find_column(const std::vector<column>& columns, const std::string& name);

}  // namespace jetperf
