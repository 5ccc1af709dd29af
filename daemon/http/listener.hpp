#pragma once
// Accepts connections and starts a session for each, each on its own strand; answers 503 to
// connections over the limit.
#include <memory>

#include "http/beast.hpp"
#include "http/net.hpp"
#include "http/server_context.hpp"

namespace jetperf::daemon {

class listener : public std::enable_shared_from_this<listener> {
 public:
  /// Binds and listens; throws std::system_error naming the endpoint when that fails.
  listener(net::io_context& ioc, const tcp::endpoint& endpoint,
           std::shared_ptr<const server_context> context);

  void run();
  /// Closes the acceptor (from any thread); open sessions continue.
  void stop();
  tcp::endpoint local_endpoint() const { return endpoint_; }

 private:
  void do_accept();
  void on_accept(beast::error_code ec, tcp::socket socket);

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  net::steady_timer retry_;
  std::shared_ptr<const server_context> context_;
  tcp::endpoint endpoint_;
};

}  // namespace jetperf::daemon
