#pragma once
// The REST API as a pure function: (method, target, headers, body) -> response. It never sees a
// socket; daemon/http moves the bytes. Exactly one place (error_mapping) turns exceptions into
// statuses and the JSON error body.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/api/auth.hpp>
#include <jetperf/api/http_types.hpp>
#include <jetperf/api/route_table.hpp>
#include <jetperf/api/sse_subscriptions.hpp>
#include <jetperf/api/storage_status.hpp>
#include <jetperf/common/event_hub.hpp>
#include <jetperf/jobs/job_service.hpp>
#include <jetperf/telemetry/prometheus.hpp>

namespace jetperf::platform {
class board_controller;
}
namespace jetperf::store {
class sample_store;
class retention_store;
class trace_attachment_store;
struct attachment_limits;
}

namespace jetperf::api {

class telemetry_view;

struct auth_settings {
  std::string token;             ///< the bearer token mutating requests must carry
  bool require_for_reads = false;  ///< when true, GET requests need it too (except /v1/health)
  /// Host names requests may be addressed to (host_check.hpp); empty: any.
  std::vector<std::string> allowed_hosts;
};

/// Domain services the routes use; pointers that may be null are marked so.
struct services {
  jobs::job_service* jobs = nullptr;  ///< required
  event_hub* hub = nullptr;           ///< required (SSE)
  auth_settings auth;
  /// Extra fields merged into GET /v1/health (board name, ...); may be empty.
  std::function<nlohmann::json()> health_extra;
  /// Board control for /v1/board, /v1/power-mode, /v1/clocks; null: those answer 503.
  platform::board_controller* board = nullptr;
  /// Merged into GET /v1/board: {"simulated": bool, "board": "sim:orin-agx" | "jetson" | ...};
  /// may be empty (then simulated false and the detected family).
  std::function<nlohmann::json()> board_identity;
  /// Latest telemetry for /v1/telemetry, its stream and /metrics; null: telemetry answers 503
  /// and /metrics carries only the job lines.
  const telemetry_view* telemetry = nullptr;
  /// Stored job samples for GET /v1/jobs/{id}/samples; null: that route answers 503.
  store::sample_store* samples = nullptr;
  /// Job timelines for GET /v1/jobs/{id}/trace; null: that route answers 503.
  const store::timeline_store* timeline = nullptr;
  /// Traces attached to jobs (POST/GET /v1/jobs/{id}/traces); null: those routes answer 503.
  store::trace_attachment_store* attachments = nullptr;
  /// Where attached traces are kept (the daemon names the files), and the bounds on them.
  std::string attachment_dir;
  std::int64_t attachment_max_per_job = 8;
  std::int64_t attachment_max_total_bytes = std::int64_t{4} << 30;
  /// The largest trace file accepted (the HTTP layer's upload limit, for uploads made in memory).
  std::int64_t attachment_max_bytes = std::int64_t{256} << 20;
  /// The page's files for GET / and /web/...; "": those answer 404 saying the page is not installed.
  std::string web_root;
  /// Debian's /usr/share/javascript (the libjs-* plotting libraries) for GET /javascript/...
  std::string javascript_dir;
  /// Pins and the state of each job's samples (POST/DELETE /v1/jobs/{id}/pin, the job's
  /// `retention`); null: the pin routes answer 503.
  store::retention_store* retention = nullptr;
  /// The store's size, free disk and retention, for /v1/health and /metrics; empty: left out.
  std::function<storage_status()> storage;
  /// jetperf_build_info's labels at /metrics; nullopt: the series is left out.
  std::optional<telemetry::prometheus_build_info> build_info;
};

/// Checks the Host header (403 for a name the daemon does not answer to), matches the route (404
/// unknown path, 405 with Allow for a known path and wrong method), refuses a change from a web
/// page of another origin (403), checks the token, runs the handler and maps any exception through
/// error_mapping.
/// `services.hub` must outlive the router (SSE subscriptions are released at destruction).
class router {
 public:
  /// Registers every route of register_all_routes (routes.hpp).
  explicit router(services s);
  /// Never throws: every failure becomes an error response.
  http_response handle(const http_request& request) const;
  /// Whether the request carries the valid bearer token (the HTTP layer keeps its last
  /// connections for such requests).
  bool authenticated(const http_request& request) const;
  /// Whether the request's route may wait (route_traits::may_wait).
  bool may_wait(const http_request& request) const;
  /// Whether the request's route takes its body as a file (route_traits::body_to_file).
  bool body_to_file(const http_request& request) const;
  /// What handle() would refuse the request with on its header alone (host, route, origin, token,
  /// the route's admit check), or nullopt when its body may be read. Never throws.
  std::optional<http_response> admit(const http_request& request) const;
  const route_table& routes() const { return routes_; }
  /// SSE streams whose subscription is still held (for tests and diagnostics).
  std::size_t open_streams() const { return streams_->sweep(); }

 private:
  /// The request's route (404/405 otherwise), after the host, origin and token checks; throws
  /// http_error like handle() answers.
  route_request checked(const http_request& request, const route*& found) const;

  services services_;
  route_table routes_;
  std::unique_ptr<sse_subscriptions> streams_;
  std::int64_t started_monotonic_ns_;
};

}  // namespace jetperf::api
