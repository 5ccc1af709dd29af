#include <jetperf/api/csv_writer.hpp>

#include <cmath>

#include <jetperf/api/json_body.hpp>

namespace jetperf::api {

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

namespace {

// A list's items, or an object's key=value pairs, joined with ';' (one cell, no nested JSON).
std::string joined(const nlohmann::json& value) {
  std::string out;
  const auto item = [](const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.is_null() ? std::string() : dump_json(v);
  };
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) out += (out.empty() ? "" : ";") + it.key() + "=" + item(*it);
  } else {
    for (const auto& v : value) out += (out.empty() ? "" : ";") + item(v);
  }
  return out;
}

}  // namespace

std::string csv_cell(const nlohmann::json& value, column_type type) {
  if (value.is_array() || value.is_object()) return csv_quote(joined(value));
  // An integer column stays integral (a 2.0 read back is written 2), so a reader types it as int.
  if (type == column_type::integer && value.is_number_float() && std::isfinite(value.get<double>()) &&
      value.get<double>() == std::floor(value.get<double>()) && std::fabs(value.get<double>()) < 9e15)
    return std::to_string(static_cast<std::int64_t>(value.get<double>()));
  return csv_field(value);
}

std::string write_results_csv(const result_table& table) {
  std::string out;
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (i) out += ',';
    out += csv_quote(table.columns[i].name);
  }
  out += "\r\n";
  for (const auto& row : table.rows) {
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      if (i) out += ',';
      auto it = row.find(table.columns[i].name);
      if (it != row.end()) out += csv_cell(*it, table.columns[i].type);
    }
    out += "\r\n";
  }
  return out;
}

}  // namespace jetperf::api
