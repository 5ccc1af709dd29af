#pragma once
// What every session of one server shares: the request handler, the limits and the counters.
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include <jetperf/api/http_types.hpp>

#include "http/connection_limit.hpp"

namespace jetperf::daemon {

/// The pure function that answers a request (api::router::handle in the daemon).
using request_handler = std::function<api::http_response(const api::http_request&)>;

struct session_limits {
  std::size_t header_limit = 8 * 1024;
  std::size_t body_limit = 1024 * 1024;
  std::chrono::steady_clock::duration read_timeout = std::chrono::seconds(30);
  /// How long a keep-alive connection may sit idle between requests.
  std::chrono::steady_clock::duration idle_timeout = std::chrono::seconds(60);
  std::chrono::steady_clock::duration write_timeout = std::chrono::seconds(30);
  /// Interval of ": keep-alive" comments on SSE streams, so proxies keep them open.
  std::chrono::steady_clock::duration sse_keepalive = std::chrono::seconds(15);
};

struct server_context {
  request_handler handler;
  session_limits limits;
  std::string server_name;  ///< value of the Server header
  std::shared_ptr<connection_limit> connections;
};

}  // namespace jetperf::daemon
