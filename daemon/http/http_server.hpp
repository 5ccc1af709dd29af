#pragma once
// The daemon's HTTP server: a listener and its sessions on an io_context run by a few niced
// threads. Requests go to a request_handler (api::router::handle in the daemon, a fake in tests).
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "http/net.hpp"
#include "http/server_context.hpp"

namespace jetperf::daemon {

class listener;
class work_pool;

struct http_server_options {
  std::string host = "127.0.0.1";
  std::uint16_t port = 7070;  ///< 0 picks a free port; see local_port()
  std::size_t threads = 2;
  std::size_t max_connections = 256;
  /// Of max_connections, kept for requests that carry the token.
  std::size_t reserved_connections = 4;
  /// Event streams (SSE) in all, and from one remote address.
  std::size_t max_streams = 64;
  std::size_t max_streams_per_address = 8;
  /// Threads for handlers that may wait, and how many such requests may queue for them.
  std::size_t work_threads = 2;
  std::size_t max_queued_work = 64;
  /// Added to the io and work threads' nice value so the API never competes with a measurement.
  int nice_increment = 5;
  session_limits limits;
  /// See server_context::upload_dir and server_context::uploads.
  std::string upload_dir;
  std::shared_ptr<upload_space> uploads;
};

class http_server {
 public:
  http_server(http_server_options options, request_handlers handlers);
  /// Every request answered on the io threads, none authenticated (tests).
  http_server(http_server_options options, request_handler handler);
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  /// Binds (throws std::system_error naming the address) and starts the io threads.
  void start();
  /// Stops accepting new connections; open ones continue.
  void stop_accepting();
  /// Stops accepting, closes every connection (ending SSE streams) and joins the threads.
  void stop();

  /// The bound address, "HOST:PORT", valid after start().
  std::string local_address() const;
  std::uint16_t local_port() const;
  /// Connections holding a slot now.
  std::size_t open_connections() const;
  /// Event streams open now.
  std::size_t open_streams() const;
  /// Requests on the work pool now, waiting or running.
  std::size_t waiting_requests() const;

 private:
  http_server_options options_;
  std::shared_ptr<server_context> context_;
  std::unique_ptr<work_pool> work_;
  std::unique_ptr<net::io_context> ioc_;
  std::shared_ptr<listener> listener_;
  std::vector<std::thread> threads_;
  tcp::endpoint endpoint_;
};

}  // namespace jetperf::daemon
