#pragma once
// The route table: each routes_*.cpp registers (method, path pattern, handler). Patterns are
// literal segments and `{name}` placeholders that match one non-empty segment, e.g.
// "/v1/jobs/{id}/results"; a route with route_traits::rest_of_path lets its last placeholder take
// the rest of the path, slashes included (the page's static files). Adding a route never touches
// the router.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/api/http_types.hpp>
#include <jetperf/api/query_params.hpp>

namespace jetperf::api {

struct services;
class sse_subscriptions;

/// What a handler gets: the request, its decoded parts and the services.
struct route_request {
  const http_request& http;
  std::string path;                                  ///< target without the query
  std::map<std::string, std::string> path_params;    ///< {name} -> segment
  query_params query;
  const services& svc;
  sse_subscriptions& streams;                        ///< keeps SSE subscriptions alive
  std::int64_t started_monotonic_ns = 0;             ///< when the router was built (uptime)

  /// The body as a JSON object (see json_body.hpp for the errors).
  nlohmann::json json_body() const;
  /// A path parameter that must be a positive integer id; throws validation_error(name).
  std::int64_t id_param(const std::string& name = "id") const;
};

using route_handler = std::function<http_response(const route_request&)>;

/// What a route is, besides its handler.
struct route_traits {
  /// Never needs the token for reads (GET /v1/health).
  bool public_read = false;
  /// Its handler may wait (nvpmodel, a cancellation, a large result set): the HTTP layer runs it
  /// off its io threads.
  bool may_wait = false;
  /// Its body is a file upload: the HTTP layer streams it to disk under its own size limit (not
  /// the 1 MiB of every other body) and hands the handler http_request::body_file.
  bool body_to_file = false;
  /// For body_to_file routes: checks made on the header alone, before any byte of the body is
  /// read (the job exists and can take another attachment); throws like a handler.
  std::function<void(const route_request&)> admit = nullptr;
  /// The pattern's last segment is a placeholder that takes every remaining segment, joined by
  /// '/' ("/web/{path}" matches "/web/js/main.js" with path "js/main.js"); each must be non-empty.
  bool rest_of_path = false;
};

struct route {
  std::string method;
  std::string pattern;
  route_handler handler;
  route_traits traits;
  std::vector<std::string> segments;  ///< the pattern split at '/'
};

class route_table {
 public:
  /// Throws std::invalid_argument for a duplicate (method, pattern) or a malformed pattern.
  void add(std::string method, std::string pattern, route_handler handler, route_traits traits = {});

  struct match_result {
    const route* found = nullptr;                   ///< null when nothing matched method and path
    std::map<std::string, std::string> params;
    std::vector<std::string> allowed;               ///< methods of the path when only the method was wrong
  };
  match_result match(const std::string& method, const std::string& path) const;
  const std::vector<route>& routes() const { return routes_; }

 private:
  std::vector<route> routes_;
};

/// A JSON response with the given status.
http_response json_response(int status, const nlohmann::json& body);

}  // namespace jetperf::api
