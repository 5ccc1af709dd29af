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

struct http_server_options {
  std::string host = "127.0.0.1";
  std::uint16_t port = 7070;  ///< 0 picks a free port; see local_port()
  std::size_t threads = 2;
  std::size_t max_connections = 256;
  /// Added to the io threads' nice value so the API never competes with a measurement.
  int nice_increment = 5;
  session_limits limits;
};

class http_server {
 public:
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

 private:
  http_server_options options_;
  std::shared_ptr<server_context> context_;
  std::unique_ptr<net::io_context> ioc_;
  std::shared_ptr<listener> listener_;
  std::vector<std::thread> threads_;
  tcp::endpoint endpoint_;
};

}  // namespace jetperf::daemon
