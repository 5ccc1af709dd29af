#pragma once
// The REST API as a pure function: (method, target, headers, body) -> response. It never sees a
// socket; daemon/http moves the bytes. Exactly one place (error_mapping) turns exceptions into
// statuses and the JSON error body.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include <jetperf/api/http_types.hpp>
#include <jetperf/common/event_hub.hpp>
#include <jetperf/jobs/job_service.hpp>

namespace jetperf::api {

struct auth_settings {
  std::string token;             ///< the bearer token mutating requests must carry
  bool require_for_reads = false;  ///< when true, GET requests need it too (except /v1/health)
};

/// Domain services the routes use; pointers that may be null are marked so.
struct services {
  jobs::job_service* jobs = nullptr;  ///< required
  event_hub* hub = nullptr;           ///< required (SSE)
  auth_settings auth;
  /// Extra fields merged into GET /v1/health (board name, ...); may be empty.
  std::function<nlohmann::json()> health_extra;
};

class router {
 public:
  explicit router(services s);
  /// Never throws: every failure becomes an error response.
  http_response handle(const http_request& request) const;

 private:
  services services_;
};

}  // namespace jetperf::api
