#include <jetperf/api/json_writer.hpp>

namespace jetperf::api {

nlohmann::json write_results_json(const nlohmann::json& job, const result_table& table,
                                  const nlohmann::json& summary) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : table.rows) rows.push_back(row);
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& c : table.columns) columns.push_back(column_json(c));
  return {{"job", job},
          {"columns", std::move(columns)},
          {"rows", std::move(rows)},
          {"summary", summary.is_object() ? summary : nlohmann::json::object()}};
}

}  // namespace jetperf::api
