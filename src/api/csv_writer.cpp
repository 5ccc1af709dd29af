#include <jetperf/api/csv_writer.hpp>

#include <cmath>

#include <jetperf/api/json_body.hpp>

namespace jetperf::api {

std::string csv_quote(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string csv_field(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded:
      return {};
    case nlohmann::json::value_t::string:
      return csv_quote(value.get<std::string>());
    case nlohmann::json::value_t::number_float:
      // nlohmann prints the shortest text that reads back to the same double.
      return std::isfinite(value.get<double>()) ? value.dump() : std::string();
    case nlohmann::json::value_t::boolean:
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return value.dump();
    default:
      return csv_quote(dump_json(value));
  }
}

std::string write_results_csv(const result_table& table) {
  std::string out;
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (i) out += ',';
    out += csv_quote(table.columns[i]);
  }
  out += "\r\n";
  for (const auto& row : table.rows) {
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      if (i) out += ',';
      auto it = row.find(table.columns[i]);
      if (it != row.end()) out += csv_field(*it);
    }
    out += "\r\n";
  }
  return out;
}

}  // namespace jetperf::api
