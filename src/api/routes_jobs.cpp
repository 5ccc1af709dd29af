#include <limits>

#include <jetperf/api/job_view.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/store/retention_store.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/store/cell_json.hpp>

namespace jetperf::api {

namespace {

constexpr std::size_t k_max_tags = 32;
constexpr std::size_t k_max_tag_length = 64;

bool valid_tag(const std::string& tag) {
  if (tag.empty() || tag.size() > k_max_tag_length) return false;
  for (unsigned char c : tag) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '.' || c == ':' || c == '-';
    if (!ok) return false;
  }
  return true;
}

const char* k_tag_rule = "1 to 64 characters of A-Z a-z 0-9 _ . : -";

std::vector<std::string> read_tags(const nlohmann::json& body) {
  std::vector<std::string> tags;
  auto it = body.find("tags");
  if (it == body.end() || it->is_null()) return tags;
  if (!it->is_array()) throw validation_error("tags", "tags must be an array of strings");
  if (it->size() > k_max_tags)
    throw validation_error("tags", "at most " + std::to_string(k_max_tags) + " tags are allowed, got " +
                                       std::to_string(it->size()),
                           "out_of_range");
  for (std::size_t i = 0; i < it->size(); ++i) {
    const auto& t = (*it)[i];
    const std::string field = "tags[" + std::to_string(i) + "]";
    if (!t.is_string()) throw validation_error(field, field + " must be a string");
    if (!valid_tag(t.get<std::string>())) throw validation_error(field, field + " must be " + k_tag_rule);
    tags.push_back(t.get<std::string>());
  }
  return tags;
}

// Everything outside the spec is checked here, before the job service sees the request, so
// that a bad request never changes state; the spec itself is validated by its workload.
http_response submit(const route_request& r) {
  r.query.reject_unknown({});
  const auto body = r.json_body();
  for (auto it = body.begin(); it != body.end(); ++it)
    if (it.key() != "kind" && it.key() != "spec" && it.key() != "tags" && it.key() != "dry_run")
      throw validation_error(it.key(), "unknown field '" + it.key() + "' (known: kind, spec, tags, dry_run)",
                             "unknown_field");
  auto kind_it = body.find("kind");
  if (kind_it == body.end()) throw validation_error("kind", "kind is required", "missing_field");
  if (!kind_it->is_string()) throw validation_error("kind", "kind must be a string");
  const auto kind = kind_it->get<std::string>();
  // Throws validation_error(field "kind") naming the known kinds.
  r.svc.jobs->registry().get(kind);

  nlohmann::json spec = nlohmann::json::object();
  if (auto it = body.find("spec"); it != body.end()) {
    if (!it->is_object()) throw validation_error("spec", "spec must be a JSON object");
    spec = *it;
  }
  const auto tags = read_tags(body);
  bool dry_run = false;
  if (auto it = body.find("dry_run"); it != body.end()) {
    if (!it->is_boolean()) throw validation_error("dry_run", "dry_run must be true or false");
    dry_run = it->get<bool>();
  }

  if (dry_run) return json_response(200, to_json(r.svc.jobs->dry_run(kind, record_of(spec))));
  const auto job = r.svc.jobs->submit(kind, record_of(spec), tags);
  auto res = json_response(201, job_json(job));
  res.headers.emplace_back("Location", "/v1/jobs/" + std::to_string(job.id));
  return res;
}

http_response list(const route_request& r) {
  r.query.reject_unknown({"state", "kind", "tag", "limit", "offset"});
  store::job_filter filter;
  if (auto s = r.query.get("state")) filter.state = jobs::parse_job_state(*s, "state");
  if (auto k = r.query.get("kind")) {
    if (k->empty() || k->size() > 64) throw validation_error("kind", "kind must be 1 to 64 characters");
    filter.kind = *k;
  }
  if (auto t = r.query.get("tag")) {
    if (!valid_tag(*t)) throw validation_error("tag", std::string("tag must be ") + k_tag_rule);
    filter.tag = *t;
  }
  filter.limit = r.query.integer("limit", 1, 1000, 50);
  filter.offset = r.query.integer("offset", 0, std::numeric_limits<std::int64_t>::max() / 2, 0);
  // Summaries: the spec, the results' summary and the provenance only in GET /v1/jobs/{id}.
  filter.documents = false;
  std::int64_t total = 0;
  const auto jobs = r.svc.jobs->list(filter, &total);
  nlohmann::json items = nlohmann::json::array();
  for (const auto& j : jobs) items.push_back(job_list_item_json(j));
  return json_response(200, {{"jobs", items}, {"total", total}, {"limit", filter.limit}, {"offset", filter.offset}});
}

http_response get(const route_request& r) {
  r.query.reject_unknown({});
  auto body = job_json(r.svc.jobs->get(r.id_param()));
  // Only a job retention has touched (pinned, or its samples downsampled or dropped) says so.
  if (r.svc.retention)
    if (const auto kept = r.svc.retention->find(r.id_param()); kept && (kept->pinned || kept->samples != "full"))
      body["retention"] = {{"pinned", kept->pinned}, {"samples", kept->samples}};
  return json_response(200, body);
}

http_response cancel(const route_request& r) {
  r.query.reject_unknown({});
  return json_response(200, job_json(r.svc.jobs->cancel(r.id_param())));
}

http_response resume(const route_request& r) {
  r.query.reject_unknown({});
  return json_response(200, job_json(r.svc.jobs->resume(r.id_param())));
}

}  // namespace

void register_job_routes(route_table& table) {
  // Submission asks the board what it offers (nvpmodel) and estimates every point; a cancel
  // waits for the running job's next safe point.
  const route_traits waits{false, /*may_wait=*/true};
  table.add("POST", "/v1/jobs", submit, waits);
  table.add("GET", "/v1/jobs", list);
  table.add("GET", "/v1/jobs/{id}", get);
  table.add("DELETE", "/v1/jobs/{id}", cancel, waits);
  table.add("POST", "/v1/jobs/{id}/resume", resume, waits);
}

}  // namespace jetperf::api
