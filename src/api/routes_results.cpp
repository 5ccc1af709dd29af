#include <algorithm>

#include <spdlog/spdlog.h>

#include <jetperf/api/csv_writer.hpp>
#include <jetperf/api/job_view.hpp>
#include <jetperf/api/json_body.hpp>
#include <jetperf/api/json_writer.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/api/telemetry_view.hpp>
#include <jetperf/common/errors.hpp>

namespace jetperf::api {

namespace {

// The stored summary, or the workload's summary over the points stored so far (a running job).
nlohmann::json summary_of(const route_request& r, const store::job_record& job,
                          const std::vector<store::point_record>& points) {
  if (job.summary.is_object() && !job.summary.empty()) return job.summary;
  const auto& registry = r.svc.jobs->registry();
  if (points.empty() || !registry.has(job.kind)) return nlohmann::json::object();
  try {
    return registry.get(job.kind).summarize(job.spec, points);
  } catch (const std::exception& e) {
    spdlog::warn("job {}: summary failed: {}", job.id, e.what());
    return nlohmann::json::object();
  }
}

// The rails of this daemon's board, in the sensor's order: every job of a kind on it gets the
// same rail columns, whatever its points measured.
std::vector<std::string> board_rails(const route_request& r) {
  std::vector<std::string> rails;
  if (!r.svc.telemetry) return rails;
  for (const auto& c : r.svc.telemetry->channels())
    if (c.kind == telemetry::channel_kind::power && c.name.rfind("rail.", 0) == 0) rails.push_back(c.name.substr(5));
  return rails;
}

// A kind this daemon no longer has still has its stored rows (as undeclared columns).
const jobs::column_table& columns_of(const jobs::workload_registry& registry, const std::string& kind) {
  static const jobs::column_table none;
  return registry.has(kind) ? registry.get(kind).columns() : none;
}

http_response results(const route_request& r) {
  r.query.reject_unknown({"format"});
  const std::string format = r.query.get("format").value_or("json");
  const auto id = r.id_param();
  const auto job = r.svc.jobs->get(id);
  const auto& registry = r.svc.jobs->registry();
  if (format != "json" && format != "csv") {
    std::vector<std::string> formats = {"json", "csv"};
    if (registry.has(job.kind)) {
      const auto& w = registry.get(job.kind);
      const auto own = w.export_formats();
      if (std::find(own.begin(), own.end(), format) != own.end()) {
        http_response res;
        auto exported = w.export_results(format, job.spec, r.svc.jobs->points(id));
        // Where the numbers come from travels with them, as the last key of the layout.
        if (exported.is_object()) exported["provenance"] = job.provenance;
        res.body = exported.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        return res;
      }
      formats.insert(formats.end(), own.begin(), own.end());
    }
    std::string list;
    for (const auto& f : formats) list += (list.empty() ? "" : ", ") + f;
    throw validation_error("format", "format must be one of " + list + " for a " + job.kind + " job, got '" + format + "'");
  }
  const auto points = r.svc.jobs->points(id);
  const auto table = build_result_table(columns_of(registry, job.kind), board_rails(r), points);
  if (format == "csv") {
    http_response res;
    res.content_type = "text/csv; charset=utf-8";
    res.body = write_results_csv(table);
    res.headers.emplace_back("Content-Disposition", "attachment; filename=\"job-" + std::to_string(id) + ".csv\"");
    return res;
  }
  auto body = write_results_json(job_json(job), table, summary_of(r, job, points));
  body["provenance"] = job.provenance;
  return json_response(200, body);
}

}  // namespace

void register_result_routes(route_table& table) { table.add("GET", "/v1/jobs/{id}/results", results); }

}  // namespace jetperf::api
