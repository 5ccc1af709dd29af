#include <jetperf/jobs/point_outcome.hpp>

#include <vector>

namespace jetperf::jobs {

namespace {

using nlohmann::json;

// The value a row shows for `name`: the item's own where it has the key, else the point's (as
// the result table overlays them).
const json* value_in_row(const json& point, const json* item, const std::string& name) {
  if (item && item->is_object()) {
    const auto it = item->find(name);
    if (it != item->end()) return &*it;
  }
  const auto it = point.find(name);
  return it != point.end() ? &*it : nullptr;
}

// Why a row is not ok ("" when it is).
std::string missing_in_row(const column_table& table, const json& point, const json* item) {
  if (item && item->is_object() && item->value("layer_resolution", std::string()) == "runs_nothing") return {};
  for (const auto& c : table.columns) {
    if (!c.main) continue;
    const auto* v = value_in_row(point, item, c.name);
    if (v && !v->is_null()) continue;
    if (item && item->is_object() && item->value("layer_resolution", std::string()) == "unresolvable")
      return "unresolvable";
    return c.unit == "W" || c.unit == "J" ? "no_power" : "incomplete";
  }
  return {};
}

}  // namespace

std::string settle_status(const column_table& table, json& metrics) {
  if (!metrics.is_object()) return "ok";
  json* items = nullptr;
  if (!table.row_list.empty()) {
    const auto it = metrics.find(table.row_list);
    if (it != metrics.end() && it->is_array() && !it->empty()) items = &*it;
  }
  if (!items) {
    const auto why = missing_in_row(table, metrics, nullptr);
    return why.empty() ? "ok" : why;
  }
  std::string status = "ok";
  std::vector<std::string> why(items->size());
  for (std::size_t i = 0; i < items->size(); ++i) {
    why[i] = missing_in_row(table, metrics, &(*items)[i]);
    if (status == "ok" && !why[i].empty()) status = why[i];
  }
  // A row that lacks nothing says ok itself: it would show the point's status otherwise.
  if (status != "ok")
    for (std::size_t i = 0; i < items->size(); ++i)
      if ((*items)[i].is_object()) (*items)[i]["status"] = why[i].empty() ? "ok" : why[i];
  return status;
}

}  // namespace jetperf::jobs
