#pragma once
// Accepts connections and starts a session for each, each on its own strand; answers 503 to
// connections over the limit.
#include <mutex>
#include <chrono>
#include <cstddef>
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
  /// A session on `slot`, or the 503 answer without one.
  void start_session(tcp::socket socket, connection_limit::slot slot);
  /// Tries for a slot again shortly (`tries` more times), closing the oldest silent connection
  /// each time, until one frees; then a session, or 503.
  void admit_later(tcp::socket socket, int tries);

  /// A newcomer waits up to tries x retry for a silent connection to be closed.
  static constexpr std::chrono::milliseconds k_admit_retry{5};
  static constexpr int k_admit_tries = 100;
  /// A newcomer is through admit_later: accepting resumes if it was paused.
  void admitted();

  /// Newcomers in admit_later; at max_connections accepting pauses until one is through.
  std::mutex admit_mutex_;
  std::size_t pending_admits_ = 0;
  bool accept_paused_ = false;

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  net::steady_timer retry_;
  std::shared_ptr<const server_context> context_;
  tcp::endpoint endpoint_;
};

}  // namespace jetperf::daemon
