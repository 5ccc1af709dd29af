#include <atomic>
#include <limits>
#include <memory>
#include <sstream>

#include <jetperf/api/csv_writer.hpp>
#include <jetperf/api/json_body.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/api/telemetry_feed.hpp>
#include <jetperf/api/telemetry_view.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/store/sample_store.hpp>
#include <jetperf/telemetry/prometheus.hpp>

namespace jetperf::api {

namespace {

const telemetry_view& telemetry_of(const route_request& r) {
  if (!r.svc.telemetry) throw unavailable("no telemetry on this host");
  return *r.svc.telemetry;
}

http_response telemetry_now(const route_request& r) {
  r.query.reject_unknown({});
  const auto& view = telemetry_of(r);
  auto j = telemetry_snapshot_json(view);
  j["health"] = sampler_health_json(view.health());
  return json_response(200, j);
}

// Frames come from the daemon's telemetry_feed (telemetry_feed.hpp); each stream forwards one
// whenever its own interval has passed. Half a feed period of slack keeps a 500 ms stream at
// 500 ms instead of rounding up to 600 ms when feed frames arrive a little early.
http_response telemetry_stream(const route_request& r) {
  r.query.reject_unknown({"interval_ms"});
  const auto interval_ms = r.query.integer("interval_ms", k_telemetry_stream_min_ms, k_telemetry_stream_max_ms,
                                           k_telemetry_stream_default_ms);
  const auto& view = telemetry_of(r);
  auto channel = std::make_shared<sse_channel>();
  auto ended = std::make_shared<std::atomic<bool>>(false);
  auto last_ns = std::make_shared<std::atomic<std::int64_t>>(monotonic_ns());
  const std::int64_t due_ns = interval_ms * 1'000'000 - k_telemetry_feed_period_ms * 500'000;
  std::weak_ptr<sse_channel> weak = channel;
  auto subscription = r.svc.hub->subscribe(
      k_telemetry_topic, [weak, ended, last_ns, due_ns](const std::string& event, const std::string& data) {
        auto ch = weak.lock();
        if (!ch || ch->closed()) {
          ended->store(true);
          return false;
        }
        if (event != k_telemetry_event) return true;
        const auto now = monotonic_ns();
        if (now - last_ns->load() < due_ns) return true;
        last_ns->store(now);
        ch->push(k_telemetry_event, data);
        return true;
      });
  // The first frame goes out at once, so a client sees values without waiting an interval.
  channel->push(k_telemetry_event, dump_json(telemetry_snapshot_json(view)));
  r.streams.keep(weak, ended, std::move(subscription));

  http_response res;
  res.status = 200;
  res.content_type = "text/event-stream";
  res.headers.emplace_back("Cache-Control", "no-cache");
  res.stream = std::move(channel);
  return res;
}

std::optional<std::int64_t> time_param(const route_request& r, const char* name) {
  if (!r.query.get(name)) return std::nullopt;
  return r.query.integer(name, 0, std::numeric_limits<std::int64_t>::max(), 0);
}

std::string number_text(double v) {
  // Shortest round-trip form, as JSON writes it.
  return nlohmann::json(v).dump();
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

http_response samples(const route_request& r) {
  r.query.reject_unknown({"channel", "from", "to", "format", "point"});
  const std::string format = r.query.get("format").value_or("json");
  if (format != "json" && format != "csv")
    throw validation_error("format", "format must be json or csv, got '" + format + "'");
  auto from = time_param(r, "from");
  auto to = time_param(r, "to");
  if (from && to && *from > *to) throw validation_error("to", "to must not be before from");
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
  const auto rows = store.query(id, channel_id, from, to);
  auto name_of = [&](std::int64_t cid) -> std::string {
    auto it = by_id.find(cid);
    return it == by_id.end() ? std::to_string(cid) : it->second->name;
  };

  if (format == "csv") {
    std::string out = "channel,t_ns,value\r\n";
    for (const auto& row : rows)
      out += csv_quote(name_of(row.channel_id)) + "," + std::to_string(row.t_ns) + "," + number_text(row.value) + "\r\n";
    http_response res;
    res.content_type = "text/csv; charset=utf-8";
    res.body = std::move(out);
    res.headers.emplace_back("Content-Disposition",
                             "attachment; filename=\"job-" + std::to_string(id) + "-samples.csv\"");
    return res;
  }
  // Channels listed once with their unit; each sample names its channel.
  std::map<std::int64_t, bool> used;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& row : rows) {
    used[row.channel_id] = true;
    list.push_back({{"channel", name_of(row.channel_id)}, {"t_ns", row.t_ns}, {"value", row.value}});
  }
  nlohmann::json channels = nlohmann::json::array();
  for (const auto& c : all)
    if (used.count(c.id) || (channel_id && *channel_id == c.id))
      channels.push_back({{"name", c.name}, {"unit", c.unit}, {"source", c.source}});
  return json_response(200, {{"job_id", job.id}, {"channels", channels}, {"samples", list}});
}

std::int64_t count_in_state(const route_request& r, jobs::job_state state) {
  store::job_filter filter;
  filter.state = state;
  filter.limit = 1;
  std::int64_t total = 0;
  r.svc.jobs->list(filter, &total);
  return total;
}

http_response metrics(const route_request& r) {
  r.query.reject_unknown({});
  telemetry::prometheus_job_state job;
  if (auto id = r.svc.jobs->running()) {
    job.running = true;
    job.job_id = *id;
    try {
      job.kind = r.svc.jobs->get(*id).kind;
    } catch (const not_found&) {
    }
  }
  job.queued = static_cast<std::int64_t>(r.svc.jobs->queued_count());
  job.completed = count_in_state(r, jobs::job_state::succeeded);
  job.failed = count_in_state(r, jobs::job_state::failed);

  std::vector<telemetry::channel_info> channels;
  std::vector<std::optional<double>> values;
  std::optional<int> total;
  telemetry::sampler_health health;
  if (const auto* view = r.svc.telemetry) {
    channels = view->channels();
    for (const auto& reading : view->latest()) values.push_back(reading.value);
    values.resize(channels.size());
    total = view->total_power_channel();
    health = view->health();
  }
  http_response res;
  res.content_type = "text/plain; version=0.0.4; charset=utf-8";
  res.body = telemetry::render_prometheus(channels, values, total, health, job);
  return res;
}

}  // namespace

void register_telemetry_routes(route_table& table) {
  table.add("GET", "/v1/telemetry", telemetry_now);
  table.add("GET", "/v1/telemetry/stream", telemetry_stream);
  table.add("GET", "/v1/jobs/{id}/samples", samples);
  table.add("GET", "/metrics", metrics);
}

}  // namespace jetperf::api
