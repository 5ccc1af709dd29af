#pragma once
// The table of `jetperf results`: the kind's default columns (or the ones asked for), rows kept
// by --where, skipped points folded into one counted line, failed ones counted, the table fitted
// to a terminal's width, then the kind's summary.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/common/summary_table.hpp>

namespace jetperf::client {

/// How a person asked to see the results.
struct result_view_options {
  std::vector<std::string> columns;  ///< --columns: exactly these, in this order
  bool wide = false;                 ///< --wide: every column, no width limit
  std::vector<std::string> where;    ///< --where KEY=VALUE items; a row must match all
  int max_width = 0;                 ///< a terminal's width; 0 (pipe, file): no limit
  /// The kind's declared summary tables (GET /v1/kinds/{kind}); none: the summary reads as
  /// `key: value` lines.
  std::vector<summary_table> summary_tables;
};

/// Renders GET /v1/jobs/{id}/results?format=json. Throws cli_error(exit_usage) for an unknown
/// column in `columns` or `where`, or a `where` item that is not KEY=VALUE.
///
/// Without `columns` or `wide` the columns are those marked `shown`; on a terminal (`max_width`
/// > 0) the ones that do not fit are dropped from the right, with a note naming them. Skipped
/// points become one line, `skipped: N points (n "reason", ...)`, unless a --where names status
/// or the reason column is printed (then the reason column is added after the selection, as the
/// error column is when failed points are shown; either may not fit). Failed points stay rows,
/// and `failed: N points` follows the table.
std::string format_results_view(const nlohmann::json& results, const result_view_options& options);

}  // namespace jetperf::client
