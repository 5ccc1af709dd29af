// GET /v1/jobs/{id}/trace: the job's timeline and telemetry as Chrome trace-event JSON, whole or
// cut to a time range (from/to, CLOCK_MONOTONIC ns) or to one point. Telemetry comes at full
// rate for windows up to two minutes, and as per-bucket means beyond (or at counter_ms), so the
// file stays a size a browser opens.
#include <algorithm>
#include <limits>

#include <jetperf/api/chrome_trace.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/common/errors.hpp>

namespace jetperf::api {

namespace {

constexpr std::size_t k_max_spans = 1'000'000;
constexpr std::int64_t k_full_rate_window_ns = 120'000'000'000;
constexpr std::int64_t k_buckets_per_channel = 20000;

std::optional<std::int64_t> time_param(const route_request& r, const char* name) {
  if (!r.query.get(name)) return std::nullopt;
  return r.query.integer(name, 0, std::numeric_limits<std::int64_t>::max(), 0);
}

bool wanted(const std::string& mode, const store::channel_record& c) {
  if (mode == "all") return true;
  if (mode == "power") return c.unit == "W";
  return false;
}

std::vector<trace_counter> counters_of(const store::sample_store& samples, std::int64_t job_id, const std::string& mode,
                                       std::int64_t from_ns, std::int64_t to_ns, std::optional<std::int64_t> bucket_ns) {
  std::vector<trace_counter> out;
  if (mode == "none") return out;
  const auto window = to_ns - from_ns;
  if (!bucket_ns && window > k_full_rate_window_ns) bucket_ns = std::max<std::int64_t>(window / k_buckets_per_channel, 1'000'000);
  for (const auto& c : samples.channels()) {
    if (!wanted(mode, c)) continue;
    trace_counter tc{c.name, c.unit, {}};
    if (bucket_ns) {
      for (const auto& b : samples.buckets(job_id, c.id, from_ns, to_ns, *bucket_ns, k_buckets_per_channel * 2))
        tc.points.emplace_back(b.t_ns, b.mean);
    } else {
      for (const auto& s : samples.query(job_id, c.id, from_ns, to_ns)) tc.points.emplace_back(s.t_ns, s.value);
    }
    if (!tc.points.empty()) out.push_back(std::move(tc));
  }
  return out;
}

http_response trace(const route_request& r) {
  r.query.reject_unknown({"from", "to", "point", "counters", "counter_ms"});
  const auto id = r.id_param();
  const auto job = r.svc.jobs->get(id);  // not_found for an unknown job
  if (!r.svc.timeline) throw unavailable("no timeline store on this host");
  store::timeline_query q;
  q.job_id = id;
  q.from_ns = time_param(r, "from");
  q.to_ns = time_param(r, "to");
  if (q.from_ns && q.to_ns && *q.from_ns > *q.to_ns) throw validation_error("to", "to must not be before from");
  if (r.query.get("point")) {
    if (q.from_ns || q.to_ns) throw validation_error("point", "give point or from/to, not both");
    q.point_index = r.query.integer("point", 0, std::numeric_limits<std::int64_t>::max(), 0);
  }
  const std::string mode = r.query.get("counters").value_or("all");
  if (mode != "all" && mode != "power" && mode != "none")
    throw validation_error("counters", "counters must be all, power or none, got '" + mode + "'");
  std::optional<std::int64_t> bucket_ns;
  if (r.query.get("counter_ms")) bucket_ns = r.query.integer("counter_ms", 1, 3'600'000, 1000) * 1'000'000;

  q.limit = k_max_spans + 1;
  trace_document doc;
  doc.spans = r.svc.timeline->spans(q);
  if (doc.spans.size() > k_max_spans)
    throw validation_error(q.point_index ? "point" : "to",
                           "the trace would hold more than " + std::to_string(k_max_spans) +
                               " spans: cut it with from/to (CLOCK_MONOTONIC ns) or point",
                           "too_large");
  // Telemetry over what the spans cover (or the range asked for).
  std::int64_t from = q.from_ns.value_or(std::numeric_limits<std::int64_t>::max());
  std::int64_t to = q.to_ns.value_or(std::numeric_limits<std::int64_t>::min());
  for (const auto& s : doc.spans) {
    if (!q.from_ns) from = std::min(from, s.t_start_ns);
    if (!q.to_ns) to = std::max(to, s.t_end_ns);
  }
  if (r.svc.samples && from <= to) doc.counters = counters_of(*r.svc.samples, id, mode, from, to, bucket_ns);

  doc.title = "jetperf job " + std::to_string(id) + " (" + job.kind + ")";
  doc.metadata = {{"job", id},
                  {"kind", job.kind},
                  {"state", to_string(job.state)},
                  {"clock", "CLOCK_MONOTONIC"},
                  {"ts_unit", "us"},
                  {"counter_bucket_ms", bucket_ns ? nlohmann::json(static_cast<double>(*bucket_ns) / 1e6) : nlohmann::json()},
                  {"provenance", job.provenance}};
  http_response res;
  res.body = chrome_trace_json(doc);
  res.headers.emplace_back("Content-Disposition", "attachment; filename=\"job-" + std::to_string(id) + "-trace.json\"");
  return res;
}

}  // namespace

void register_trace_routes(route_table& table) {
  table.add("GET", "/v1/jobs/{id}/trace", trace, {false, /*may_wait=*/true});
}

}  // namespace jetperf::api
