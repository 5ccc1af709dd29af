#include <algorithm>
#include <set>

#include <spdlog/spdlog.h>

#include <jetperf/api/csv_writer.hpp>
#include <jetperf/api/job_view.hpp>
#include <jetperf/api/json_body.hpp>
#include <jetperf/api/json_writer.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/api/telemetry_view.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/store/cell_json.hpp>
#include <jetperf/jobs/point_rows.hpp>

namespace jetperf::api {

namespace {

// One table over at most this many jobs: bounded work and memory per request.
constexpr std::int64_t k_max_tagged_jobs = 500;

// The stored summary, or the workload's summary over the points stored so far (a running job).
nlohmann::json summary_of(const route_request& r, const store::job_record& job,
                          const std::vector<store::point_record>& points) {
  if (job.summary.is_object() && !job.summary.empty()) return job.summary;
  const auto& registry = r.svc.jobs->registry();
  if (points.empty() || !registry.has(job.kind)) return nlohmann::json::object();
  try {
    return to_json(registry.get(job.kind).summarize(jobs::point_rows(points)));
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
const column_table& columns_of(const jobs::workload_registry& registry, const std::string& kind) {
  static const column_table none;
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
        auto exported = to_ordered_json(w.export_results(format, jobs::point_rows(r.svc.jobs->points(id))));
        // Where the numbers come from travels with them, as the last key of the layout, unless
        // the layout's readers would take it for one of theirs (GET /v1/jobs/{id} has it too).
        if (exported.is_object() && w.export_has_provenance(format)) exported["provenance"] = job.provenance;
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

// "a,b" -> {"a","b"}; empty items refused, naming the parameter.
std::vector<std::string> tag_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const auto item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) throw validation_error("tags", "tags must be a comma list of tags, got '" + text + "'");
    out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// The points of every job carrying all the tags (of one kind), as one table: job_id and tags
// lead each row, then the kind's columns, oldest job first.
http_response tagged_results(const route_request& r) {
  r.query.reject_unknown({"tags", "kind", "format"});
  const auto tags_text = r.query.get("tags");
  if (!tags_text) throw validation_error("tags", "give tags=T[,U...]: the jobs carrying all of them");
  const std::string format = r.query.get("format").value_or("json");
  if (format != "json" && format != "csv") throw validation_error("format", "format must be json or csv, got '" + format + "'");
  store::job_filter filter;
  filter.tags = tag_list(*tags_text);
  filter.kind = r.query.get("kind");
  filter.limit = k_max_tagged_jobs;
  std::int64_t total = 0;
  auto jobs = r.svc.jobs->list(filter, &total);
  if (total > k_max_tagged_jobs)
    throw validation_error("tags", std::to_string(total) + " jobs carry these tags, over the limit of " +
                                       std::to_string(k_max_tagged_jobs) + "; add a tag or a kind");
  std::set<std::string> kinds;
  for (const auto& j : jobs) kinds.insert(j.kind);
  if (kinds.size() > 1) {
    std::string list;
    for (const auto& k : kinds) list += (list.empty() ? "" : ", ") + k;
    throw validation_error("kind", "jobs of several kinds carry these tags (" + list + "); choose one with kind=");
  }
  std::reverse(jobs.begin(), jobs.end());  // oldest first, as they ran

  std::vector<store::point_record> points;
  std::vector<const store::job_record*> owner;
  for (const auto& j : jobs) {
    // A damaged job row is listed (state "unreadable") but has no points to trust.
    if (!j.unreadable.empty()) continue;
    for (auto& p : r.svc.jobs->points(j.id)) {
      points.push_back(std::move(p));
      owner.push_back(&j);
    }
  }
  const std::string kind = kinds.empty() ? filter.kind.value_or("") : *kinds.begin();
  auto table = build_result_table(columns_of(r.svc.jobs->registry(), kind), board_rails(r), points);
  table.columns.insert(table.columns.begin(),
                       {{"job_id", column_type::integer, column_role::parameter, "", "the job of the point", true},
                        {"tags", column_type::list, column_role::parameter, "", "the job's tags", false}});
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const auto* job = owner[table.point_of_row[i]];
    nlohmann::json row{{"job_id", job->id}, {"tags", job->tags}};
    row.update(table.rows[i]);
    table.rows[i] = std::move(row);
  }
  if (format == "csv") {
    http_response res;
    res.content_type = "text/csv; charset=utf-8";
    res.body = write_results_csv(table);
    return res;
  }
  nlohmann::json listed = nlohmann::json::array();
  for (const auto& j : jobs) listed.push_back(job_json(j));
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& c : table.columns) columns.push_back(column_json(c));
  return json_response(200, {{"kind", kind}, {"jobs", listed}, {"columns", columns}, {"rows", table.rows}});
}

}  // namespace

void register_result_routes(route_table& table) {
  // Result sets of many points take a while to read and render.
  const route_traits waits{false, /*may_wait=*/true};
  table.add("GET", "/v1/jobs/{id}/results", results, waits);
  table.add("GET", "/v1/results", tagged_results, waits);
}

}  // namespace jetperf::api
