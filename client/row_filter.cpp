#include "row_filter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "cli_error.hpp"

namespace jetperf::client {

namespace {

std::optional<double> as_number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || std::isnan(v)) return std::nullopt;
  return v;
}

std::optional<double> as_number(const nlohmann::json& cell) {
  if (cell.is_number()) return cell.get<double>();
  if (cell.is_string()) return as_number(cell.get<std::string>());
  return std::nullopt;
}

bool same_number(double a, double b) {
  return a == b || std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

}  // namespace

row_filter::row_filter(const std::vector<std::string>& items, const std::vector<result_column>& columns) {
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw cli_error(exit_usage, "--where expects KEY=VALUE, got '" + item + "'");
    clause c{item.substr(0, eq), item.substr(eq + 1)};
    const bool known =
        std::any_of(columns.begin(), columns.end(), [&](const result_column& col) { return col.name == c.key; });
    if (!known)
      throw cli_error(exit_usage,
                      "--where: unknown column '" + c.key + "' (known: " + column_names(columns) + ")");
    clauses_.push_back(std::move(c));
  }
}

bool row_filter::matches(const nlohmann::json& row) const {
  for (const auto& c : clauses_) {
    const auto it = row.find(c.key);
    const nlohmann::json cell = it == row.end() ? nlohmann::json() : *it;
    if (format_result_cell(cell) == c.value) continue;
    const auto want = as_number(c.value);
    const auto have = as_number(cell);
    if (want && have && same_number(*want, *have)) continue;
    return false;
  }
  return true;
}

bool row_filter::constrains(const std::string& key) const {
  return std::any_of(clauses_.begin(), clauses_.end(), [&](const clause& c) { return c.key == key; });
}

}  // namespace jetperf::client
