#include <jetperf/jobs/point_outcome.hpp>

#include <vector>

#include <jetperf/measure/point_columns.hpp>

namespace jetperf::jobs {

namespace {

// The value a row shows for `name`: the item's own where it has the key, else the point's (as
// the result table overlays them).
const cell* value_in_row(const row& point, const record* item, const std::string& name) {
  if (item)
    if (const auto* v = item->find(name)) return v;
  return point.find(name);
}

std::string resolution_of(const record* item) {
  const auto* v = item ? item->find("layer_resolution") : nullptr;
  return v && v->is_string() ? v->as_string() : std::string();
}

// Why a row is not ok ("" when it is): a main metric it lacks, else a physical bound one of its
// figures broke (its implausible column, as the row shows it).
std::string missing_in_row(const column_table& table, const row& point, const record* item) {
  // An alias ran nothing; a merged layer's figure is its group's row.
  if (resolution_of(item) == "runs_nothing" || resolution_of(item) == "merged") return {};
  for (const auto& c : table.columns) {
    if (!c.main) continue;
    const auto* v = value_in_row(point, item, c.name);
    if (v && !v->is_null()) continue;
    if (resolution_of(item) == "unresolvable") return "unresolvable";
    return c.unit == "W" || c.unit == "J" ? "no_power" : "incomplete";
  }
  const auto* bounds = value_in_row(point, item, measure::cols::implausible.name);
  if (bounds && bounds->is_record() && !bounds->as_record().empty()) return "implausible";
  return {};
}

}  // namespace

std::string settle_status(const column_table& table, row& metrics) {
  cell_list* items = nullptr;
  if (!table.row_list.empty()) {
    auto* list = metrics.cells().find(table.row_list);
    if (list && list->is_list() && !list->as_list().empty()) items = &list->as_list();
  }
  if (!items) {
    const auto why = missing_in_row(table, metrics, nullptr);
    return why.empty() ? "ok" : why;
  }
  std::string status = "ok";
  std::vector<std::string> why(items->size());
  for (std::size_t i = 0; i < items->size(); ++i) {
    const auto& item = (*items)[i];
    why[i] = missing_in_row(table, metrics, item.is_record() ? &item.as_record() : nullptr);
    if (status == "ok" && !why[i].empty()) status = why[i];
  }
  // A row that lacks nothing says ok itself: it would show the point's status otherwise.
  if (status != "ok")
    for (std::size_t i = 0; i < items->size(); ++i)
      if ((*items)[i].is_record()) (*items)[i].as_record().set("status", why[i].empty() ? "ok" : why[i]);
  return status;
}

}  // namespace jetperf::jobs
