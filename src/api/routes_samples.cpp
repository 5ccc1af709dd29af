// GET /v1/jobs/{id}/samples: a job's stored telemetry, in pages (limit, after) so that an hour of
// samples at 1 kHz never has to fit one response, or summarised per bucket (bucket_ms: min, max,
// mean, count per channel) for an overview of any length. A page streams from the store
// (sample_page_stream), so its memory does not grow with its limit.
#include <limits>
#include <map>
#include <optional>
#include <string>

#include <jetperf/api/csv_writer.hpp>
#include <jetperf/api/json_body.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/api/sample_page_stream.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/store/retention_store.hpp>
#include <jetperf/store/sample_store.hpp>

namespace jetperf::api {

namespace {

constexpr std::int64_t k_max_limit = 100000;
// Without a limit a page ends once its samples' text reaches this (about 13 000 samples).
constexpr std::size_t k_default_page_bytes = 1 << 20;
// Buckets of one answer: as many as a page of samples.
constexpr std::size_t k_max_buckets = 100000;

std::optional<std::int64_t> time_param(const route_request& r, const char* name) {
  if (!r.query.get(name)) return std::nullopt;
  return r.query.integer(name, 0, std::numeric_limits<std::int64_t>::max(), 0);
}

std::string number_text(double v) {
  // Shortest round-trip form, as JSON writes it.
  return nlohmann::json(v).dump();
}

// "T_NS:CHANNEL_ID", as next_after gave it.
std::optional<store::sample_key> cursor_param(const route_request& r) {
  const auto text = r.query.get("after");
  if (!text) return std::nullopt;
  const auto colon = text->find(':');
  try {
    std::size_t a = 0, b = 0;
    if (colon == std::string::npos) throw std::invalid_argument("no colon");
    const auto t = std::stoll(text->substr(0, colon), &a);
    const auto c = std::stoll(text->substr(colon + 1), &b);
    if (a != colon || b != text->size() - colon - 1) throw std::invalid_argument("trailing text");
    return store::sample_key{t, c};
  } catch (const std::exception&) {
    throw validation_error("after", "after must be the next_after of an earlier page (T_NS:CHANNEL), got '" + *text + "'");
  }
}

std::pair<std::int64_t, std::int64_t> point_window(const route_request& r, std::int64_t id) {
  const auto text = *r.query.get("point");
  std::int64_t index = -1;
  try {
    std::size_t used = 0;
    index = std::stoll(text, &used);
    if (used != text.size()) index = -1;
  } catch (const std::exception&) {
  }
  if (index < 0) throw validation_error("point", "point must be a point index (0, 1, ...), got '" + text + "'");
  for (const auto& p : r.svc.jobs->points(id))
    if (p.index == index) {
      if (p.t_start_ns <= 0 || p.t_end_ns < p.t_start_ns)
        throw validation_error("point", "point " + text + " has no measurement window (status " + p.status + ")");
      return {p.t_start_ns, p.t_end_ns};
    }
  throw not_found("job " + std::to_string(id) + " has no finished point " + text, "point");
}

http_response csv_answer(std::string text, std::int64_t id) {
  http_response res;
  res.content_type = "text/csv; charset=utf-8";
  res.body = std::move(text);
  res.headers.emplace_back("Content-Disposition", "attachment; filename=\"job-" + std::to_string(id) + "-samples.csv\"");
  return res;
}

http_response samples(const route_request& r) {
  r.query.reject_unknown({"channel", "from", "to", "format", "point", "limit", "after", "bucket_ms"});
  const std::string format = r.query.get("format").value_or("json");
  if (format != "json" && format != "csv")
    throw validation_error("format", "format must be json or csv, got '" + format + "'");
  auto from = time_param(r, "from");
  auto to = time_param(r, "to");
  if (from && to && *from > *to) throw validation_error("to", "to must not be before from");
  const auto limit = r.query.integer("limit", 1, k_max_limit, k_max_limit);
  const auto after = cursor_param(r);
  std::optional<std::int64_t> bucket_ms;
  if (r.query.get("bucket_ms")) bucket_ms = r.query.integer("bucket_ms", 1, 86'400'000, 1000);
  if (bucket_ms && after) throw validation_error("after", "buckets come in one answer: give after or bucket_ms, not both");
  const auto id = r.id_param();
  const auto job = r.svc.jobs->get(id);  // not_found for an unknown job
  if (r.query.get("point")) {
    // One point's window, as its row states it (window_start_ns .. window_end_ns).
    if (from || to) throw validation_error("point", "give point or from/to, not both");
    const auto window = point_window(r, id);
    from = window.first;
    to = window.second;
  }
  if (!r.svc.samples) throw unavailable("no sample store on this host");
  const auto& store = *r.svc.samples;

  const auto all = store.channels();
  std::map<std::int64_t, const store::channel_record*> by_id;
  for (const auto& c : all) by_id[c.id] = &c;
  std::optional<std::int64_t> channel_id;
  if (auto name = r.query.get("channel")) {
    for (const auto& c : all)
      if (c.name == *name) channel_id = c.id;
    if (!channel_id) {
      std::string known;
      for (const auto& c : all) known += (known.empty() ? "" : ", ") + c.name;
      throw validation_error("channel", "unknown channel '" + *name + "'; known: " + (known.empty() ? "none" : known));
    }
  }
  const auto name_of = [&](std::int64_t cid) -> std::string {
    auto it = by_id.find(cid);
    return it == by_id.end() ? std::to_string(cid) : it->second->name;
  };
  // Channels listed once with their unit; each sample names its channel.
  std::map<std::int64_t, bool> used;
  const auto channels_json = [&] {
    nlohmann::json channels = nlohmann::json::array();
    for (const auto& c : all)
      if (used.count(c.id) || (channel_id && *channel_id == c.id))
        channels.push_back({{"name", c.name}, {"unit", c.unit}, {"source", c.source}});
    return channels;
  };

  if (bucket_ms) {
    const auto buckets = store.buckets(id, channel_id, from, to, *bucket_ms * 1'000'000, k_max_buckets);
    if (format == "csv") {
      std::string out = "channel,t_ns,min,max,mean,count\r\n";
      for (const auto& b : buckets)
        out += csv_quote(name_of(b.channel_id)) + "," + std::to_string(b.t_ns) + "," + number_text(b.min) + "," +
               number_text(b.max) + "," + number_text(b.mean) + "," + std::to_string(b.count) + "\r\n";
      return csv_answer(std::move(out), id);
    }
    nlohmann::json list = nlohmann::json::array();
    for (const auto& b : buckets) {
      used[b.channel_id] = true;
      list.push_back({{"channel", name_of(b.channel_id)}, {"t_ns", b.t_ns}, {"min", b.min}, {"max", b.max},
                      {"mean", b.mean}, {"count", b.count}});
    }
    return json_response(200, {{"job_id", job.id}, {"channels", channels_json()}, {"bucket_ms", *bucket_ms},
                               {"buckets", list}});
  }

  // The page streams from the store: its memory is a part of it, whatever its limit.
  sample_page_request page;
  page.job_id = id;
  page.channel_id = channel_id;
  page.from_ns = from;
  page.to_ns = to;
  page.after = after;
  page.limit = static_cast<std::size_t>(limit);
  page.max_bytes = r.query.get("limit") ? 0 : k_default_page_bytes;
  page.csv = format == "csv";
  if (r.svc.retention)
    if (const auto kept = r.svc.retention->find(id); kept && kept->samples != "full") page.retention = kept->samples;
  auto stream = std::make_shared<sample_page_stream>(store, all, page);
  if (format == "csv") {
    // CSV has no room for the next page's cursor but a header, known once the page is read.
    std::string out, piece;
    for (bool more = true; more;) {
      piece.clear();
      more = stream->next(piece);
      out += piece;
    }
    auto res = csv_answer(std::move(out), id);
    if (stream->next_after()) res.headers.emplace_back("X-Next-After", sample_page_stream::cursor_text(*stream->next_after()));
    return res;
  }
  http_response res;
  res.chunks = std::move(stream);
  return res;
}

}  // namespace

void register_samples_routes(route_table& table) {
  table.add("GET", "/v1/jobs/{id}/samples", samples, {false, /*may_wait=*/true});
}

}  // namespace jetperf::api
