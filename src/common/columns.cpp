#include <jetperf/common/columns.hpp>

namespace jetperf {

namespace {
constexpr const char* k_rail_prefix = "rail_";
constexpr const char* k_rail_suffix = "_w";
}  // namespace

const char* to_string(column_type t) {
  switch (t) {
    case column_type::integer: return "integer";
    case column_type::number: return "number";
    case column_type::boolean: return "boolean";
    case column_type::text: return "text";
    case column_type::list: return "list";
    case column_type::object: return "object";
  }
  return "number";
}

const char* to_string(column_role r) { return r == column_role::parameter ? "parameter" : "metric"; }

const std::vector<column>& leading_columns() {
  static const std::vector<column> cols = {
      {"index", column_type::integer, column_role::parameter, "", "position of the point in the job, from 0", false},
      {"status", column_type::text, column_role::metric, "",
       "ok; skipped (see reason) or failed (see error); or no_power, unresolvable or incomplete: it ran but lacks a "
       "main metric (its power, an in_context layer's own power, its time); or implausible: a figure broke a "
       "physical bound (see implausible)", true},
  };
  return cols;
}

const std::vector<column>& trailing_columns() {
  static const std::vector<column> cols = {
      {"window_start_ns", column_type::integer, column_role::metric, "ns",
       "start of the point's measurement window (CLOCK_MONOTONIC, the samples' clock)", false},
      {"window_end_ns", column_type::integer, column_role::metric, "ns", "end of the point's measurement window", false},
      {"reason", column_type::text, column_role::metric, "", "why the point was skipped", false},
      {"error", column_type::text, column_role::metric, "", "why the point failed", false},
      {"implausible", column_type::object, column_role::metric, "",
       "the physical bounds the row's figures broke, {bound: the figure and the limit it passed} (status "
       "implausible; results.md lists the bounds)", false},
  };
  return cols;
}

std::string rail_column_name(const std::string& rail) { return k_rail_prefix + rail + k_rail_suffix; }

column rail_column(const std::string& rail) {
  return {rail_column_name(rail), column_type::number, column_role::metric, "W",
          "mean power of rail " + rail + " over the measurement window", false};
}

std::string rail_of_column(const std::string& name) {
  const std::string prefix = k_rail_prefix, suffix = k_rail_suffix;
  if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return {};
  return name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
}

std::vector<column> output_columns(const column_table& table, const std::vector<std::string>& rails) {
  std::vector<column> out = leading_columns();
  out.insert(out.end(), table.columns.begin(), table.columns.end());
  if (table.rails)
    for (const auto& r : rails) out.push_back(rail_column(r));
  const auto& tail = trailing_columns();
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

const column* find_column(const std::vector<column>& columns, const std::string& name) {
  for (const auto& c : columns)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace jetperf
