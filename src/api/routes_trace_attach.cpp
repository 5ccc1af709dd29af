// POST /v1/jobs/{id}/traces: a trace the job's program wrote (the body, streamed to a file by
// the HTTP layer), aligned with the job's clock and read against its power samples: 201 with the
// alignment and the energy per op and per kernel, stored as the job's attachment n.
// GET /v1/jobs/{id}/traces lists them; GET /v1/jobs/{id}/traces/{n} gives one (json or csv).
// A job takes attachments once it has finished (any kind: without marked phases only the trace's
// own wall-clock base or an explicit offset aligns it), at most attachment_max_per_job of them,
// and all jobs' together at most attachment_max_total_bytes on disk.
#include <atomic>
#include <cstdio>
#include <fstream>
#include <limits>

#include <mutex>

#include <jetperf/api/attachment_analysis.hpp>
#include <jetperf/api/http_error.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/store/trace_attachment_store.hpp>
#include <jetperf/traces/iterations.hpp>
#include <jetperf/traces/trace_reader.hpp>

namespace jetperf::api {

namespace {

using nlohmann::json;

store::trace_attachment_store& attachments_of(const route_request& r) {
  if (!r.svc.attachments || r.svc.attachment_dir.empty() || !r.svc.timeline)
    throw unavailable("no trace attachment store on this host");
  return *r.svc.attachments;
}

// A finished job that can take one more attachment (the header-only check, made again with
// the body).
store::job_record admissible_job(const route_request& r) {
  auto& store = attachments_of(r);
  const auto job = r.svc.jobs->get(r.id_param());  // not_found
  if (job.state == store::job_state::queued || job.state == store::job_state::running)
    throw conflict("job " + std::to_string(job.id) + " is " + to_string(job.state) +
                       ": attach its trace once it has finished",
                   "id");
  if (store.count(job.id) >= r.svc.attachment_max_per_job)
    throw conflict("job " + std::to_string(job.id) + " has " + std::to_string(r.svc.attachment_max_per_job) +
                       " trace attachments already, the most one job may have",
                   "id");
  return job;
}

// force=true attaches a trace that does not belong to the job, its figures marked unverified.
bool force_param(const route_request& r) {
  const auto v = r.query.get("force");
  if (!v || *v == "false" || *v == "0") return false;
  if (*v == "true" || *v == "1") return true;
  throw validation_error("force", "force must be true or false, got '" + *v + "'");
}

// How the trace's iterations are found: iteration_op (an exact name) or iteration_label (a
// pattern), or neither (the profilers' step labels).
traces::iteration_rule iteration_param(const route_request& r) {
  traces::iteration_rule rule;
  for (const char* name : {"iteration_op", "iteration_label"}) {
    const auto v = r.query.get(name);
    if (!v) continue;
    if (v->empty()) throw validation_error(name, std::string(name) + " is empty");
    (std::string(name) == "iteration_op" ? rule.op : rule.label) = *v;
  }
  if (!rule.op.empty() && !rule.label.empty())
    throw validation_error("iteration_label", "give iteration_op or iteration_label, not both");
  if (rule.label.size() > traces::k_max_iteration_pattern)
    throw validation_error("iteration_label", "iteration_label is longer than " +
                                                  std::to_string(traces::k_max_iteration_pattern) + " characters");
  return rule;
}

std::optional<std::int64_t> offset_param(const route_request& r) {
  if (!r.query.get("offset_ns")) return std::nullopt;
  return r.query.integer("offset_ns", std::numeric_limits<std::int64_t>::min() / 2,
                         std::numeric_limits<std::int64_t>::max() / 2, 0);
}

// A daemon-chosen name in the attachment directory: the job, the wall clock and a counter.
std::string new_file_name(const std::string& dir, std::int64_t job_id) {
  static std::atomic<std::uint64_t> counter{0};
  return dir + "/job-" + std::to_string(job_id) + "-" + std::to_string(wall_ns()) + "-" +
         std::to_string(counter.fetch_add(1)) + ".json";
}

// Removes the file unless released: every way out of the handler but success deletes it.
class file_guard {
 public:
  explicit file_guard(std::string path) : path_(std::move(path)) {}
  ~file_guard() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  file_guard(const file_guard&) = delete;
  file_guard& operator=(const file_guard&) = delete;
  const std::string& path() const { return path_; }
  void rename_to(const std::string& to) {
    if (std::rename(path_.c_str(), to.c_str()) != 0) throw store_error("cannot store the trace as " + to);
    path_ = to;
  }
  void release() { path_.clear(); }

 private:
  std::string path_;
};

// The uploaded body on disk: the HTTP layer's file, or (a request made in memory, as the tests
// make them) the body written to one.
std::string body_on_disk(const route_request& r, std::int64_t job_id) {
  const auto& dir = r.svc.attachment_dir;
  if (!r.http.body_file.empty()) {
    if (r.http.body_file.compare(0, dir.size() + 1, dir + "/") != 0)
      throw validation_error("body", "the upload is not in the attachment directory");
    return r.http.body_file;
  }
  if (static_cast<std::int64_t>(r.http.body.size()) > r.svc.attachment_max_bytes)
    throw http_error(413, "payload_too_large",
                     "the trace exceeds " + std::to_string(r.svc.attachment_max_bytes) + " bytes (max_trace_upload_mb)", {},
                     "body");
  const auto path = new_file_name(dir, job_id) + ".part";
  std::ofstream out(path, std::ios::binary);
  out.write(r.http.body.data(), static_cast<std::streamsize>(r.http.body.size()));
  if (!out.flush()) throw store_error("cannot write the trace under " + dir);
  return path;
}

http_response attach(const route_request& r) {
  r.query.reject_unknown({"offset_ns", "force", "iteration_op", "iteration_label"});
  const auto job = admissible_job(r);
  const auto offset = offset_param(r);
  const bool force = force_param(r);
  const auto iterations = iteration_param(r);
  file_guard file(body_on_disk(r, job.id));
  traces::trace_limits limits;
  limits.max_bytes = static_cast<std::size_t>(r.svc.attachment_max_bytes);
  // One analysis at a time: a trace read from its file and analysed still takes memory in
  // proportion to its events (the daemon grew by about 30 MB for a 100 MB upload), so several at
  // once would multiply it on a small board.
  static std::mutex one_at_a_time;
  std::lock_guard<std::mutex> analysing(one_at_a_time);
  auto t = traces::read_trace_file(file.path(), limits);
  if (t.events.empty()) throw validation_error("body", "the trace has no complete (\"ph\": \"X\") events");
  const auto result = analyze_attachment(t, job, *r.svc.timeline, r.svc.samples, offset, force, iterations);

  store::trace_attachment a;
  a.job_id = job.id;
  a.bytes = static_cast<std::int64_t>(std::ifstream(file.path(), std::ios::binary | std::ios::ate).tellg());
  a.uploaded_ns = wall_ns();
  a.alignment = result.alignment;
  a.energy = result.energy;
  file.rename_to(new_file_name(r.svc.attachment_dir, job.id));
  a.file = file.path();
  a.n = attachments_of(r).add(a, {r.svc.attachment_max_per_job, r.svc.attachment_max_total_bytes});
  file.release();
  auto res = json_response(201, {{"job_id", job.id},
                                 {"n", a.n},
                                 {"bytes", a.bytes},
                                 {"events", t.events.size()},
                                 {"alignment", a.alignment},
                                 {"energy", a.energy}});
  res.headers.emplace_back("Location", "/v1/jobs/" + std::to_string(job.id) + "/traces/" + std::to_string(a.n));
  return res;
}

json summary_of(const store::trace_attachment& a) {
  return {{"n", a.n}, {"bytes", a.bytes}, {"uploaded", format_wall_time(a.uploaded_ns)}, {"alignment", a.alignment}};
}

http_response list(const route_request& r) {
  r.query.reject_unknown({});
  const auto job = r.svc.jobs->get(r.id_param());
  json items = json::array();
  for (const auto& a : attachments_of(r).list(job.id)) items.push_back(summary_of(a));
  return json_response(200, {{"job_id", job.id}, {"traces", items}});
}

http_response show(const route_request& r) {
  r.query.reject_unknown({"format"});
  const auto job = r.svc.jobs->get(r.id_param());
  const auto n = r.id_param("n");
  const auto a = attachments_of(r).get(job.id, n);
  if (!a) throw not_found("job " + std::to_string(job.id) + " has no trace attachment " + std::to_string(n), "n");
  const auto format = r.query.get("format").value_or("json");
  if (format == "csv") {
    http_response res;
    res.content_type = "text/csv; charset=utf-8";
    res.body = attachment_energy_csv(a->energy);
    return res;
  }
  if (format != "json") throw validation_error("format", "format must be json or csv, got '" + format + "'");
  auto body = summary_of(*a);
  body["job_id"] = job.id;
  body["energy"] = a->energy;
  return json_response(200, body);
}

}  // namespace

void register_trace_attachment_routes(route_table& table) {
  route_traits upload;
  upload.may_wait = true;  // reads and analyses a file of up to the upload limit
  upload.body_to_file = true;
  upload.admit = [](const route_request& r) {
    r.query.reject_unknown({"offset_ns", "force", "iteration_op", "iteration_label"});
    offset_param(r);
    force_param(r);
    iteration_param(r);
    admissible_job(r);
  };
  table.add("POST", "/v1/jobs/{id}/traces", attach, upload);
  table.add("GET", "/v1/jobs/{id}/traces", list, {false, true});
  table.add("GET", "/v1/jobs/{id}/traces/{n}", show, {false, true});
}

}  // namespace jetperf::api
