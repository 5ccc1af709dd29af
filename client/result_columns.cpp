#include "result_columns.hpp"

#include <algorithm>

#include "cli_error.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

std::string text_of(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::vector<result_column> parse_result_columns(const nlohmann::json& results) {
  std::vector<result_column> out;
  const auto it = results.find("columns");
  if (it == results.end() || !it->is_array()) return out;
  for (const auto& c : *it) {
    result_column col;
    if (c.is_string()) {
      col.name = c.get<std::string>();
    } else if (c.is_object()) {
      col.name = text_of(c, "name");
      col.type = text_of(c, "type");
      col.role = text_of(c, "role");
      col.unit = text_of(c, "unit");
      col.description = text_of(c, "description");
      const auto shown = c.find("shown");
      col.shown = shown == c.end() || !shown->is_boolean() || shown->get<bool>();
    }
    if (!col.name.empty()) out.push_back(std::move(col));
  }
  return out;
}

std::string column_names(const std::vector<result_column>& columns) {
  std::string out;
  for (const auto& c : columns) out += (out.empty() ? "" : ", ") + c.name;
  return out;
}

std::vector<std::string> select_columns(const std::vector<result_column>& columns,
                                        const std::vector<std::string>& requested, bool wide) {
  std::vector<std::string> out;
  if (!requested.empty()) {
    for (const auto& name : requested) {
      const bool known =
          std::any_of(columns.begin(), columns.end(), [&](const result_column& c) { return c.name == name; });
      if (!known)
        throw cli_error(exit_usage, "--columns: unknown column '" + name + "' (known: " + column_names(columns) + ")");
      out.push_back(name);
    }
    return out;
  }
  for (const auto& c : columns)
    if (wide || c.shown) out.push_back(c.name);
  // Metadata that marks nothing as shown would print an empty table: show everything instead.
  if (out.empty())
    for (const auto& c : columns) out.push_back(c.name);
  return out;
}

std::string format_result_cell(const nlohmann::json& value) {
  if (value.is_array()) {
    if (value.empty()) return "-";
    std::string out;
    for (const auto& e : value) out += (out.empty() ? "" : ";") + (e.is_structured() ? e.dump() : format_cell(e));
    return out;
  }
  if (value.is_object()) {
    if (value.empty()) return "-";
    std::string out;
    for (const auto& [k, v] : value.items())
      out += (out.empty() ? "" : ";") + k + "=" + (v.is_structured() ? v.dump() : format_cell(v));
    return out;
  }
  return format_cell(value);
}

}  // namespace jetperf::client
