#pragma once
// A server for the HTTP layer's tests: an ephemeral loopback port, `io_threads` io threads, and
// the test's own priority (no nice increment).
#include <cstddef>

#include "http/http_server.hpp"

namespace jetperf::daemon::test {

inline http_server_options loopback_options(std::size_t io_threads) {
  http_server_options o;
  o.host = "127.0.0.1";
  o.port = 0;
  o.threads = io_threads;
  o.nice_increment = 0;
  return o;
}

}  // namespace jetperf::daemon::test
