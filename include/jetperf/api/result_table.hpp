#pragma once
// The one result model of a job, written as JSON (json_writer) or CSV (csv_writer): the kind's
// declared columns (output_columns: index, status, the kind's own, one per rail, reason,
// error) and one row per point holding every column (null where the point has no value).
// The same columns for every job of a kind, whatever happened to its points.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/common/columns.hpp>
#include <jetperf/store/job_store.hpp>

namespace jetperf::api {

struct result_table {
  std::vector<column> columns;
  /// One flat JSON object per point (per item of a point's row list), with a key for every column.
  std::vector<nlohmann::json> rows;
  /// The position in `points` of each row's point.
  std::vector<std::size_t> point_of_row;
};

/// Rows of `points` through the kind's `table`. `rails`: the board's rail names (rail columns of a
/// kind that has them); rails found only in the points follow them. A metric no column declares
/// (a point stored by an older version) is kept in an extra column after the declared ones, so
/// nothing stored is lost. A value comes from the point's metrics, else its params (a setting
/// left as is shows what it was measured at; a skipped point keeps its identity).
result_table build_result_table(const column_table& table, const std::vector<std::string>& rails,
                                const std::vector<store::point_record>& points);

/// A column's metadata as served: {name, type, role, unit, description, shown}.
nlohmann::json column_json(const column& c);

}  // namespace jetperf::api
