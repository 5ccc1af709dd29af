#pragma once
// What every session of one server shares: the request handlers, the limits, the counters and
// the pool that runs handlers that may wait.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <jetperf/api/http_types.hpp>

#include "http/connection_limit.hpp"
#include "http/first_request_wait.hpp"
#include "http/open_channels.hpp"
#include "http/stream_limit.hpp"
#include "http/upload_space.hpp"

namespace jetperf::daemon {

class work_pool;

/// The pure function that answers a request (api::router::handle in the daemon).
using request_handler = std::function<api::http_response(const api::http_request&)>;
using request_predicate = std::function<bool(const api::http_request&)>;

/// What the server asks the API about a request; all of them pure functions of the request.
struct request_handlers {
  request_handler handle;
  /// Whether the request carries the valid token (served on a reserved slot); empty: never.
  request_predicate authenticated;
  /// Whether its handler may wait (a subprocess, a cancellation): it then runs on the work pool,
  /// off the io threads; empty: never.
  request_predicate blocking;
  /// Whether the request's body is a file upload, streamed to disk under upload_limit instead of
  /// held in memory under body_limit; empty: never.
  request_predicate body_to_file;
  /// For such a request: the answer that refuses it on its header alone (no token, unknown job),
  /// or nullopt to read its body. Empty: always read.
  std::function<std::optional<api::http_response>(const api::http_request&)> admit;
};

struct session_limits {
  std::size_t header_limit = 8 * 1024;
  std::size_t body_limit = 1024 * 1024;
  /// Bytes of one file upload (request_handlers::body_to_file), written to disk as they arrive.
  std::uint64_t upload_limit = std::uint64_t{256} << 20;
  std::chrono::steady_clock::duration read_timeout = std::chrono::seconds(30);
  /// How long a new connection may take to send its first request's header; one that has sent
  /// none is also the first closed when every slot is taken (first_request_wait).
  std::chrono::steady_clock::duration header_timeout = std::chrono::seconds(5);
  /// How long a keep-alive connection may sit idle between requests.
  std::chrono::steady_clock::duration idle_timeout = std::chrono::seconds(60);
  std::chrono::steady_clock::duration write_timeout = std::chrono::seconds(30);
  /// Interval of ": keep-alive" comments on SSE streams, so proxies keep them open.
  std::chrono::steady_clock::duration sse_keepalive = std::chrono::seconds(15);
  /// Bytes an SSE stream may hold for a client that reads slower than frames arrive: beyond it
  /// the oldest telemetry frames are dropped, and a stream of a job's own events is closed.
  std::size_t stream_buffer_bytes = 256 * 1024;
};

struct server_context {
  request_handlers handlers;
  session_limits limits;
  std::string server_name;  ///< value of the Server header
  /// Where uploads are written while they arrive (the daemon names the files; the handler moves
  /// or the session deletes them); empty: no route takes uploads.
  std::string upload_dir;
  /// The disk budget uploads reserve from on their header; null: none beyond upload_limit.
  std::shared_ptr<upload_space> uploads;
  std::shared_ptr<connection_limit> connections;
  std::shared_ptr<first_request_wait> waiting;
  std::shared_ptr<stream_limit> streams;
  /// Closed by http_server::stop() before the io_context their notifiers post into goes.
  std::shared_ptr<open_channels> channels;
  work_pool* work = nullptr;  ///< owned by the http_server
};

}  // namespace jetperf::daemon
