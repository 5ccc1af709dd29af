#include <jetperf/measure/row_bounds.hpp>

#include <exception>

#include <jetperf/measure/point_board.hpp>
#include <jetperf/measure/point_columns.hpp>

namespace jetperf::measure {

namespace {

constexpr const char* k_rail_channel_prefix = "rail.";

// Differences of two measurements (the window's power less idle's): within their noise they may
// fall below zero when the work draws no more than idle, and the verdicts read them as such.
bool is_difference(const std::string& name) {
  return name == cols::dynamic_power_w.name || name == cols::dynamic_energy_j.name;
}

// The row's own numeric value of `name` (nullopt when absent, null or not a number).
std::optional<double> number_in(const row& r, const std::string& name) {
  const auto* v = r.find(name);
  return v && v->is_number() ? v->number() : std::nullopt;
}

void add(std::vector<bound_violation>& out, const std::optional<bound_violation>& v) {
  if (v) out.push_back(*v);
}

}  // namespace

row_limits limits_of(const point_context& ctx) {
  row_limits l;
  // A board that cannot say what it offers leaves the clocks unchecked rather than failing a
  // point that was measured.
  if (ctx.board) try {
      l.clocks = clock_limits_of(ctx.board->offered());
    } catch (const std::exception&) {
    }
  if (ctx.telemetry)
    if (const auto total = ctx.telemetry->total_power_channel()) {
      const auto channels = ctx.telemetry->channels();
      const auto& name = channels.at(static_cast<std::size_t>(*total)).name;
      const std::string prefix = k_rail_channel_prefix;
      if (name.rfind(prefix, 0) == 0) l.input_rail = name.substr(prefix.size());
    }
  return l;
}

std::vector<bound_violation> check_row(const row& metrics, const std::vector<column>& columns,
                                       const row_limits& limits) {
  std::vector<bound_violation> out;
  for (const auto& c : columns) {
    if (is_difference(c.name) || (c.unit != "W" && c.unit != "J")) continue;
    const auto v = number_in(metrics, c.name);
    if (!v) continue;
    add(out, c.unit == "W" ? check_power(c.name, *v, false) : check_energy(c.name, *v));
  }
  std::vector<std::pair<std::string, double>> rails;
  for (const auto& [name, value] : metrics.cells()) {
    const auto rail = rail_of_column(name);
    if (rail.empty() || !value.is_number()) continue;
    add(out, check_power(name, *value.number(), true));
    rails.emplace_back(rail, *value.number());
  }
  if (const auto total = metrics.get(cols::power_w); total && !rails.empty()) {
    auto found = check_rails(rails, *total, cols::power_w.name, limits.input_rail);
    for (auto& f : found)
      if (f.bound == physical_bound::rail_above_total) f.figure = rail_column_name(f.figure);
    out.insert(out.end(), found.begin(), found.end());
  }
  const auto clocks = check_clocks(setting_of_point(metrics.cells()), limits.clocks);
  out.insert(out.end(), clocks.begin(), clocks.end());
  return out;
}

void put_implausible(row& metrics, const std::vector<bound_violation>& found) {
  if (found.empty()) return;
  auto bounds = metrics.get(cols::implausible).value_or(record());
  for (const auto& f : found) {
    const std::string key = to_string(f.bound);
    const auto* seen = bounds.find(key);
    bounds.set(key, seen && seen->is_string() ? seen->as_string() + "; " + f.text() : f.text());
  }
  metrics.set(cols::implausible, std::move(bounds));
}

bool is_implausible(const row& metrics) {
  const auto bounds = metrics.get(cols::implausible);
  return bounds && !bounds->empty();
}

void apply_physical_bounds(row& metrics, const column_table& table, const row_limits& limits) {
  put_implausible(metrics, check_row(metrics, table.columns, limits));
  if (table.row_list.empty()) return;
  auto* list = metrics.cells().find(table.row_list);
  if (!list || !list->is_list()) return;
  // Items carry no board settings of their own: their clocks are the point's, checked above.
  const row_limits item_limits{{}, limits.input_rail};
  const auto point_bounds = metrics.get(cols::implausible);
  for (auto& item : list->as_list()) {
    if (!item.is_record()) continue;
    row r(item.as_record());
    const auto found = check_row(r, table.columns, item_limits);
    if (found.empty()) continue;
    // An item's own column hides the point's in its row: it keeps the point's bounds too.
    if (point_bounds && !r.has(cols::implausible)) r.set(cols::implausible, *point_bounds);
    put_implausible(r, found);
    item = cell(r.cells());
  }
}

}  // namespace jetperf::measure
