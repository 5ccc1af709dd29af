#include <jetperf/api/result_table.hpp>

#include <algorithm>
#include <set>

namespace jetperf::api {

namespace {

// A stored value's type, for a column no kind declares.
column_type type_of(const nlohmann::json& v) {
  if (v.is_number_integer()) return column_type::integer;
  if (v.is_number()) return column_type::number;
  if (v.is_boolean()) return column_type::boolean;
  if (v.is_array()) return column_type::list;
  if (v.is_object()) return column_type::object;
  return column_type::text;
}

nlohmann::json value_of(const store::point_record& p, const std::string& name) {
  if (name == "index") return p.index;
  if (name == "status") return p.status;
  // The window the runner stored with the point: where its samples lie (GET .../samples?point=N).
  if (name == "window_start_ns") return p.t_start_ns ? nlohmann::json(p.t_start_ns) : nlohmann::json();
  if (name == "window_end_ns") return p.t_end_ns ? nlohmann::json(p.t_end_ns) : nlohmann::json();
  nlohmann::json v;
  if (p.metrics.is_object()) {
    auto it = p.metrics.find(name);
    if (it != p.metrics.end()) v = *it;
  }
  if (v.is_null() && p.params.is_object()) {
    auto it = p.params.find(name);
    if (it != p.params.end()) v = *it;
  }
  return v;
}

}  // namespace

result_table build_result_table(const column_table& table, const std::vector<std::string>& board_rails,
                                const std::vector<store::point_record>& points) {
  std::vector<std::string> rails = board_rails;
  if (table.rails) {
    std::set<std::string> extra;
    for (const auto& p : points)
      if (p.metrics.is_object())
        for (auto it = p.metrics.begin(); it != p.metrics.end(); ++it) {
          const auto rail = rail_of_column(it.key());
          if (!rail.empty() && std::find(rails.begin(), rails.end(), rail) == rails.end()) extra.insert(rail);
        }
    rails.insert(rails.end(), extra.begin(), extra.end());
  }
  result_table out;
  out.columns = output_columns(table, rails);
  // Values nobody declared: kept, after the declared columns, in name order.
  std::set<std::string> declared;
  for (const auto& c : out.columns) declared.insert(c.name);
  std::vector<column> undeclared;
  // The row list itself is no column: its items are the rows.
  if (!table.row_list.empty()) declared.insert(table.row_list);
  const auto keep = [&](const nlohmann::json& values, column_role role) {
    if (!values.is_object()) return;
    for (auto it = values.begin(); it != values.end(); ++it)
      if (declared.insert(it.key()).second)
        undeclared.push_back({it.key(), type_of(*it), role, "", "not declared by the kind (stored by another version)",
                              false});
  };
  const auto items_of = [&](const store::point_record& p) -> const nlohmann::json* {
    if (table.row_list.empty() || !p.metrics.is_object()) return nullptr;
    const auto it = p.metrics.find(table.row_list);
    return it != p.metrics.end() && it->is_array() && !it->empty() ? &*it : nullptr;
  };
  for (const auto& p : points) {
    keep(p.metrics, column_role::metric);
    keep(p.params, column_role::parameter);
    if (const auto* items = items_of(p))
      for (const auto& item : *items) keep(item, column_role::metric);
  }
  std::sort(undeclared.begin(), undeclared.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  out.columns.insert(out.columns.end(), undeclared.begin(), undeclared.end());

  out.rows.reserve(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    nlohmann::json row = nlohmann::json::object();
    for (const auto& c : out.columns) row[c.name] = value_of(p, c.name);
    const auto* items = items_of(p);
    if (!items) {
      out.rows.push_back(std::move(row));
      out.point_of_row.push_back(i);
      continue;
    }
    for (const auto& item : *items) {
      auto sub = row;
      if (item.is_object())
        for (auto it = item.begin(); it != item.end(); ++it)
          if (sub.contains(it.key())) sub[it.key()] = *it;
      out.rows.push_back(std::move(sub));
      out.point_of_row.push_back(i);
    }
  }
  return out;
}

nlohmann::json column_json(const column& c) {
  return {{"name", c.name},          {"type", to_string(c.type)}, {"role", to_string(c.role)},
          {"unit", c.unit},          {"description", c.description},    {"shown", c.shown}};
}

}  // namespace jetperf::api
