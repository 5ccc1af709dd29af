#pragma once
// Every key a kind's point writes must be one of the kind's declared columns (or a rail column):
// the result formats and the client read only the table.
#include <string>

#include <jetperf/common/columns.hpp>
#include <jetperf/common/row.hpp>
#include <jetperf/jobs/workload.hpp>

namespace jetperf::test {

/// The metrics keys `w`'s table does not declare, comma-separated ("" when all are declared).
inline std::string undeclared_keys(const jobs::workload& w, const nlohmann::json& metrics) {
  const auto columns = output_columns(w.columns(), {});
  std::string out;
  for (auto it = metrics.begin(); it != metrics.end(); ++it) {
    const bool rail = w.columns().rails && !rail_of_column(it.key()).empty();
    if (!rail && !find_column(columns, it.key())) out += (out.empty() ? "" : ",") + it.key();
  }
  return out;
}

/// Whether `c` is of the declared type (null is every type's "unknown"; an integer is a number).
inline bool of_declared_type(const cell& c, column_type t) {
  if (c.is_null()) return true;
  switch (t) {
    case column_type::integer: return c.is_integer();
    case column_type::number: return c.is_number();
    case column_type::boolean: return c.is_bool();
    case column_type::text: return c.is_string();
    case column_type::list: return c.is_list();
    case column_type::object: return c.is_record();
  }
  return false;
}

/// The same for a typed row, and its cells whose type is not their column's ("name:type").
inline std::string undeclared_keys(const jobs::workload& w, const row& metrics) {
  const auto columns = output_columns(w.columns(), {});
  std::string out;
  for (const auto& [key, value] : metrics.cells()) {
    const bool rail = w.columns().rails && !rail_of_column(key).empty();
    const auto* c = find_column(columns, key);
    if (!rail && !c) out += (out.empty() ? "" : ",") + key;
    else if (c && !of_declared_type(value, c->type)) out += (out.empty() ? "" : ",") + key + ":" + to_string(c->type);
  }
  return out;
}

}  // namespace jetperf::test
