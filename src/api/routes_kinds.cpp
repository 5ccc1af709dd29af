// GET /v1/kinds, /v1/kinds/{kind}: each job kind's spec fields, result columns and summary
// tables, the same declarations the daemon validates specs with and writes results through.
#include <jetperf/api/result_table.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/store/cell_json.hpp>
#include <jetperf/common/errors.hpp>

namespace jetperf::api {

namespace {

const char* format_name(summary_format f) {
  switch (f) {
    case summary_format::setting: return "setting";
    case summary_format::fraction: return "fraction";
    case summary_format::params: return "params";
    case summary_format::count: return "count";
    case summary_format::value: break;
  }
  return "value";
}

const char* source_name(summary_source s) {
  switch (s) {
    case summary_source::parent: return "parent";
    case summary_source::key: return "key";
    case summary_source::row: break;
  }
  return "row";
}

nlohmann::json summary_table_json(const summary_table& t) {
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& c : t.columns) {
    nlohmann::json col = {{"header", c.header}, {"path", c.path},   {"unit", c.unit},
                          {"format", format_name(c.format)}, {"source", source_name(c.source)}};
    // Only a fraction has a whole, and only params a key to leave out.
    if (c.format == summary_format::fraction || c.format == summary_format::params) col["of"] = c.of;
    columns.push_back(std::move(col));
  }
  return {{"name", t.name},         {"title", t.title},       {"rows", t.rows},
          {"nested", t.nested},     {"columns", std::move(columns)}, {"empty_text", t.empty_text}};
}

// A declared spec field: {name, type, default, description[, min, max][, choices]}.
nlohmann::json spec_field_json(const spec_field& f) {
  nlohmann::json j = {{"name", f.name}, {"type", to_string(f.type)}, {"default", to_json(f.default_value)},
                      {"description", f.description}};
  if (f.type == spec_type::number || f.type == spec_type::integer) {
    j["min"] = f.min;
    j["max"] = f.max;
  }
  if (!f.choices.empty()) j["choices"] = f.choices;
  return j;
}

nlohmann::json kind_json(const jobs::workload& w) {
  nlohmann::json fields = nlohmann::json::array();
  for (const auto& f : w.spec_fields()) fields.push_back(spec_field_json(f));
  nlohmann::json columns = nlohmann::json::array();
  const auto& table = w.columns();
  for (const auto& c : output_columns(table, {})) columns.push_back(column_json(c));
  nlohmann::json formats = {"json", "csv"};
  for (const auto& f : w.export_formats()) formats.push_back(f);
  nlohmann::json summary_tables = nlohmann::json::array();
  for (const auto& t : w.summary_tables()) summary_tables.push_back(summary_table_json(t));
  nlohmann::json compare_views = nlohmann::json::array();
  for (const auto& v : w.compare_views()) compare_views.push_back({{"by", v.by}, {"table", summary_table_json(v.table)}});
  return {{"kind", w.kind()},
          {"description", w.description()},
          {"spec", {{"fields", std::move(fields)}}},
          {"columns", std::move(columns)},
          // Rail columns sit between the kind's own and reason/error, one per board rail.
          {"rail_columns", table.rails ? nlohmann::json(rail_column_name("<NAME>")) : nlohmann::json()},
          {"formats", std::move(formats)},
          {"summary_tables", std::move(summary_tables)},
          {"compare_views", std::move(compare_views)}};
}

http_response list(const route_request& r) {
  r.query.reject_unknown({});
  const auto& registry = r.svc.jobs->registry();
  nlohmann::json kinds = nlohmann::json::array();
  for (const auto& name : registry.kinds()) kinds.push_back(kind_json(registry.get(name)));
  return json_response(200, {{"kinds", std::move(kinds)}});
}

http_response show(const route_request& r) {
  r.query.reject_unknown({});
  const auto& name = r.path_params.at("kind");
  const auto& registry = r.svc.jobs->registry();
  if (!registry.has(name)) {
    std::string known;
    for (const auto& k : registry.kinds()) known += (known.empty() ? "" : ", ") + k;
    throw not_found("unknown job kind '" + name + "'; known kinds: " + known, "kind");
  }
  return json_response(200, kind_json(registry.get(name)));
}

}  // namespace

void register_kind_routes(route_table& table) {
  table.add("GET", "/v1/kinds", list);
  table.add("GET", "/v1/kinds/{kind}", show);
}

}  // namespace jetperf::api
