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
#include <jetperf/api/board_views.hpp>
#include <jetperf/api/clock_floors.hpp>
#include <jetperf/platform/board_controller.hpp>

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

// True for samples=all, false without it; any other value is refused.
bool wants_every_sample(const query_params& query) {
  const auto value = query.get("samples");
  if (!value) return false;
  if (*value != "all") throw validation_error("samples", "samples must be \"all\" (every sample the sampler takes)");
  return true;
}

// Frames come from the daemon's telemetry_feed (telemetry_feed.hpp); each stream forwards one
// whenever its own interval has passed. Half a feed period of slack keeps a 500 ms stream at
// 500 ms instead of rounding up to 600 ms when feed frames arrive a little early. With
// samples=all it also forwards every batch of samples the feed publishes.
http_response telemetry_stream(const route_request& r) {
  r.query.reject_unknown({"interval_ms", "samples"});
  const auto interval_ms = r.query.integer("interval_ms", k_telemetry_stream_min_ms, k_telemetry_stream_max_ms,
                                           k_telemetry_stream_default_ms);
  const bool every_sample = wants_every_sample(r.query);
  const auto& view = telemetry_of(r);
  auto channel = std::make_shared<sse_channel>();
  auto ended = std::make_shared<std::atomic<bool>>(false);
  auto last_ns = std::make_shared<std::atomic<std::int64_t>>(monotonic_ns());
  const std::int64_t due_ns = interval_ms * 1'000'000 - k_telemetry_feed_period_ms * 500'000;
  std::weak_ptr<sse_channel> weak = channel;
  // Both kinds of frame are periodic: a slow reader loses the oldest rather than growing the daemon.
  auto forward = [weak, ended](const std::string& event, const std::string& data, auto&& due) {
    auto ch = weak.lock();
    if (!ch || ch->closed()) {
      ended->store(true);
      return false;
    }
    if (due()) ch->push(event, data, false, /*droppable=*/true);
    return true;
  };
  auto subscription = r.svc.hub->subscribe(
      k_telemetry_topic, [forward, last_ns, due_ns](const std::string& event, const std::string& data) {
        return forward(event, data, [&] {
          if (event != k_telemetry_event) return false;
          const auto now = monotonic_ns();
          if (now - last_ns->load() < due_ns) return false;
          last_ns->store(now);
          return true;
        });
      });
  // The first frame goes out at once, so a client sees values without waiting an interval.
  channel->push(k_telemetry_event, dump_json(telemetry_snapshot_json(view)));
  r.streams.keep(weak, ended, std::move(subscription));
  if (every_sample) {
    auto batches = r.svc.hub->subscribe(k_telemetry_samples_topic, [forward](const std::string& event, const std::string& data) {
      return forward(event, data, [] { return true; });
    });
    r.streams.keep(weak, ended, std::move(batches));
  }

  http_response res;
  res.status = 200;
  res.content_type = "text/event-stream";
  res.headers.emplace_back("Cache-Control", "no-cache");
  res.stream = std::move(channel);
  return res;
}

std::int64_t count_in_state(const route_request& r, jobs::job_state state) {
  store::job_filter filter;
  filter.state = state;
  filter.limit = 1;
  std::int64_t total = 0;
  r.svc.jobs->list(filter, &total);
  return total;
}

// The meter's running and last finished job, with their kind and progress from the job store
// (a job the store cannot read keeps its counter, without kind or progress).
std::vector<telemetry::prometheus_job_energy> job_energy_series(const route_request& r,
                                                                const telemetry::energy_totals& totals) {
  std::vector<telemetry::prometheus_job_energy> out;
  for (const auto& j : {totals.last_finished, totals.running}) {
    if (!j) continue;
    telemetry::prometheus_job_energy e;
    e.job_id = j->job_id;
    e.joules = j->joules;
    try {
      const auto record = r.svc.jobs->get(j->job_id);
      e.kind = record.kind;
      if (record.points_total > 0)
        e.progress_ratio = static_cast<double>(record.points_done) / static_cast<double>(record.points_total);
    } catch (const std::exception&) {
    }
    out.push_back(std::move(e));
  }
  return out;
}

// The store's footprint, for alerting before a board's eMMC fills.
std::string storage_metrics(const storage_status& st) {
  std::string out;
  const auto gauge = [&out](const char* name, const char* help, const std::string& value) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " gauge\n" + name + " " + value + "\n";
  };
  gauge("jetperf_database_bytes", "Size of the daemon's SQLite database with its WAL.", std::to_string(st.database_bytes));
  gauge("jetperf_disk_free_bytes", "Free space on the database's file system.", std::to_string(st.disk_free_bytes));
  // Seconds, Prometheus's base unit (promtool refuses "_days"); /v1/health says days.
  if (st.full_rate_days)
    gauge("jetperf_full_rate_age_seconds", "Age of the oldest job samples kept at full rate.",
          nlohmann::json(*st.full_rate_days * 86400.0).dump());
  return out;
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
  telemetry::prometheus_energy energy;
  if (const auto* view = r.svc.telemetry) {
    energy.totals = view->energy();
    energy.jobs = job_energy_series(r, energy.totals);
    if (energy.totals.t_ns > 0)
      energy.timestamp_ms = (wall_ns() - (monotonic_ns() - energy.totals.t_ns)) / 1'000'000;
  }
  // Throttle state: each clock against the floor the board set (a board without control has none).
  std::vector<telemetry::prometheus_clock_floor> floors;
  if (r.svc.board) {
    try {
      floors = clock_floors(clock_state_json(r.svc.board->clocks()), channels, values);
    } catch (const std::exception&) {
      // The clock state could not be read this time: the scrape still answers, without it.
    }
  }
  http_response res;
  res.content_type = "text/plain; version=0.0.4; charset=utf-8";
  res.body = telemetry::render_prometheus(channels, values, total, health, job, energy, r.svc.build_info, floors);
  if (r.svc.storage) res.body += storage_metrics(r.svc.storage());
  return res;
}

}  // namespace

void register_telemetry_routes(route_table& table) {
  table.add("GET", "/v1/telemetry", telemetry_now);
  table.add("GET", "/v1/telemetry/stream", telemetry_stream);
  table.add("GET", "/metrics", metrics);
}

}  // namespace jetperf::api
