#pragma once
// The one result model of a job, written as JSON (json_writer) or CSV (csv_writer): one row
// per point = {"index","status"} + its params + its metrics, nested objects flattened with
// '.', columns the union of the rows' keys in first-seen order.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/store/job_store.hpp>

namespace jetperf::api {

struct result_table {
  std::vector<std::string> columns;
  /// One flat JSON object per point; a row lacks the keys its point did not have.
  std::vector<nlohmann::json> rows;
};

/// Flattens nested objects into `out` ("a": {"b": 1} -> "a.b": 1); arrays and scalars are leaves.
/// A key already present in `out` is kept and the new one is written as "<source>.<key>".
void flatten_into(const nlohmann::json& value, const std::string& prefix, const std::string& source,
                  nlohmann::json& out, std::vector<std::string>& order);

result_table build_result_table(const std::vector<store::point_record>& points);

}  // namespace jetperf::api
