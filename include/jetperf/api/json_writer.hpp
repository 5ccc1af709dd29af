#pragma once
// Results as JSON: {"job", "columns", "rows", "summary"}.
#include <nlohmann/json.hpp>

#include <jetperf/api/result_table.hpp>

namespace jetperf::api {

nlohmann::json write_results_json(const nlohmann::json& job, const result_table& table,
                                  const nlohmann::json& summary);

}  // namespace jetperf::api
