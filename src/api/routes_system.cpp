#include <jetperf/api/openapi.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/config.hpp>

namespace jetperf::api {

namespace {

http_response health(const route_request& r) {
  r.query.reject_unknown({});
  const auto running = r.svc.jobs->running();
  nlohmann::json body = {
      {"status", "ok"},
      {"version", JETPERF_VERSION},
      {"uptime_s", static_cast<double>(monotonic_ns() - r.started_monotonic_ns) / 1e9},
      {"queue",
       {{"queued", r.svc.jobs->queued_count()},
        {"running", running ? nlohmann::json(*running) : nlohmann::json(nullptr)}}}};
  if (r.svc.storage) {
    const auto st = r.svc.storage();
    body["storage"] = {{"database_bytes", st.database_bytes},
                       {"disk_free_bytes", st.disk_free_bytes},
                       {"full_rate_days", st.full_rate_days ? nlohmann::json(*st.full_rate_days) : nlohmann::json()},
                       {"retention_full_days", st.retention_full_days},
                       {"retention_days", st.retention_days}};
  }
  if (r.svc.health_extra) {
    // The core fields win over extras of the same name: clients rely on them.
    const auto extra = r.svc.health_extra();
    if (extra.is_object())
      for (auto it = extra.begin(); it != extra.end(); ++it)
        if (!body.contains(it.key())) body[it.key()] = it.value();
  }
  return json_response(200, body);
}

http_response time(const route_request& r) {
  r.query.reject_unknown({});
  const auto wall = wall_ns();
  return json_response(200, {{"monotonic_ns", monotonic_ns()}, {"wall_ns", wall}, {"wall", format_wall_time(wall)}});
}

http_response openapi(const route_request& r) {
  r.query.reject_unknown({});
  http_response res;
  res.body = std::string(openapi_json());
  return res;
}

}  // namespace

void register_system_routes(route_table& table) {
  table.add("GET", "/v1/health", health, {/*public_read=*/true});
  table.add("GET", "/v1/time", time);
  table.add("GET", "/v1/openapi.json", openapi);
}

}  // namespace jetperf::api
