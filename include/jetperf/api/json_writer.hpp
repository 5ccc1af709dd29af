#pragma once
// Results as JSON: {"job", "columns" (each column's metadata, in output order), "rows" (one
// object per point with every column), "summary"}.
#include <nlohmann/json.hpp>

#include <jetperf/api/result_table.hpp>

namespace jetperf::api {

nlohmann::json write_results_json(const nlohmann::json& job, const result_table& table,
                                  const nlohmann::json& summary);

}  // namespace jetperf::api
