// GET /v1/jobs/{id}/trace: the job's timeline and telemetry as Chrome trace-event JSON, whole or
// cut to a time range (from/to, CLOCK_MONOTONIC ns) or to one point. Telemetry comes at full
// rate for windows up to two minutes, and as per-bucket means beyond (or at counter_ms), so the
// file stays a size a browser opens. The body is streamed from the store (chunked), so the
// daemon holds a page of it at a time rather than the file.
#include <algorithm>
#include <limits>
#include <memory>

#include <jetperf/api/chrome_trace_stream.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/common/errors.hpp>

namespace jetperf::api {

namespace {

constexpr std::size_t k_max_spans = 1'000'000;
constexpr std::int64_t k_full_rate_window_ns = 120'000'000'000;
constexpr std::int64_t k_buckets_per_channel = 20000;
// The spans read before the answer starts: all of a small export's (one point's), which then
// need no second pass to be counted and outlined.
constexpr std::size_t k_first_page_spans = 2048;

std::optional<std::int64_t> time_param(const route_request& r, const char* name) {
  if (!r.query.get(name)) return std::nullopt;
  return r.query.integer(name, 0, std::numeric_limits<std::int64_t>::max(), 0);
}

bool wanted(const std::string& mode, const store::channel_record& c) {
  if (mode == "all") return true;
  if (mode == "power") return c.unit == "W";
  return false;
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

  // Everything that can refuse the export is settled here, before its first byte: the body that
  // follows is streamed from the store and can no longer become a 4xx.
  auto first_page = r.svc.timeline->spans_page(q, std::nullopt, k_first_page_spans);
  const auto outline = first_page.next_after ? r.svc.timeline->outline(q) : store::outline_of(first_page.spans);
  // Every finished point has its span on the "points" track: none is no such point (as /samples says).
  if (q.point_index && outline.spans == 0)
    throw not_found("job " + std::to_string(id) + " has no finished point " + std::to_string(*q.point_index), "point");
  if (outline.spans > static_cast<std::int64_t>(k_max_spans))
    throw validation_error(q.point_index ? "point" : "to",
                           "the trace would hold more than " + std::to_string(k_max_spans) +
                               " spans: cut it with from/to (CLOCK_MONOTONIC ns) or point",
                           "too_large");
  q.limit = k_max_spans;
  trace_selection sel;
  // Telemetry over what the spans cover (or the range asked for).
  sel.counters_from_ns = q.from_ns.value_or(outline.spans ? outline.first_start_ns : std::numeric_limits<std::int64_t>::max());
  sel.counters_to_ns = q.to_ns.value_or(outline.spans ? outline.last_end_ns : std::numeric_limits<std::int64_t>::min());
  sel.max_buckets = k_buckets_per_channel * 2;
  if (r.svc.samples && mode != "none" && sel.counters_from_ns <= sel.counters_to_ns) {
    const auto window = sel.counters_to_ns - sel.counters_from_ns;
    sel.bucket_ns = bucket_ns;
    if (!sel.bucket_ns && window > k_full_rate_window_ns)
      sel.bucket_ns = std::max<std::int64_t>(window / k_buckets_per_channel, 1'000'000);
    for (const auto& c : r.svc.samples->channels()) {
      if (!wanted(mode, c)) continue;
      if (sel.bucket_ns)
        r.svc.samples->check_bucket_count(id, c.id, sel.counters_from_ns, sel.counters_to_ns, *sel.bucket_ns, sel.max_buckets);
      sel.channels.push_back(c);
    }
  }
  sel.spans = q;
  sel.first_page = std::move(first_page);
  sel.tracks = outline.tracks;
  sel.title = "jetperf job " + std::to_string(id) + " (" + job.kind + ")";
  sel.metadata = {{"job", id},
                  {"kind", job.kind},
                  {"state", to_string(job.state)},
                  {"clock", "CLOCK_MONOTONIC"},
                  {"ts_unit", "us"},
                  {"counter_bucket_ms", bucket_ns ? nlohmann::json(static_cast<double>(*bucket_ns) / 1e6) : nlohmann::json()},
                  {"provenance", job.provenance}};
  http_response res;
  res.chunks = std::make_shared<chrome_trace_stream>(*r.svc.timeline, r.svc.samples, std::move(sel));
  res.headers.emplace_back("Content-Disposition", "attachment; filename=\"job-" + std::to_string(id) + "-trace.json\"");
  return res;
}

}  // namespace

void register_trace_routes(route_table& table) {
  table.add("GET", "/v1/jobs/{id}/trace", trace, {false, /*may_wait=*/true});
}

}  // namespace jetperf::api
