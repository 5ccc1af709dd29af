#include <jetperf/api/result_table.hpp>

namespace jetperf::api {

namespace {
void put(const std::string& key, const std::string& source, const nlohmann::json& value, nlohmann::json& out,
         std::vector<std::string>& order) {
  // A metric that only echoes its param (same name, same value) is the same datum: keep one.
  if (!source.empty() && out.contains(key) && out[key] == value) return;
  // A param left null ("leave this setting as it is") is filled by what the point measured it at.
  if (source == "metrics" && out.contains(key) && out[key].is_null()) {
    out[key] = value;
    return;
  }
  // A real collision (a metric named like a param but different, or "index") must not lose
  // data: the later one is qualified by where it came from.
  std::string name = out.contains(key) && !source.empty() ? source + "." + key : key;
  if (!out.contains(name)) order.push_back(name);
  out[name] = value;
}
}  // namespace

void flatten_into(const nlohmann::json& value, const std::string& prefix, const std::string& source,
                  nlohmann::json& out, std::vector<std::string>& order) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it)
      flatten_into(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), source, out, order);
    return;
  }
  if (prefix.empty()) {
    // A non-object params/metrics value still belongs in the row, under its source's name.
    put(source, {}, value, out, order);
    return;
  }
  put(prefix, source, value, out, order);
}

result_table build_result_table(const std::vector<store::point_record>& points) {
  result_table table;
  nlohmann::json seen = nlohmann::json::object();
  for (const auto& p : points) {
    nlohmann::json row = nlohmann::json::object();
    std::vector<std::string> order;
    flatten_into(p.index, "index", "", row, order);
    flatten_into(p.status, "status", "", row, order);
    if (!p.params.is_null()) flatten_into(p.params, "", "params", row, order);
    if (!p.metrics.is_null()) flatten_into(p.metrics, "", "metrics", row, order);
    for (const auto& name : order)
      if (!seen.contains(name)) {
        seen[name] = true;
        table.columns.push_back(name);
      }
    table.rows.push_back(std::move(row));
  }
  if (table.columns.empty()) table.columns = {"index", "status"};
  return table;
}

}  // namespace jetperf::api
