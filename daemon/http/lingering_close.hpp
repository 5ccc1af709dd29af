#pragma once
// The end of a connection after its last answer: stops sending, then discards what the peer
// still sends for a short while, so that it reads the whole answer instead of a reset caused by
// unread data (a request it pipelined, the rest of an upload that was refused).
#include <memory>

#include "http/beast.hpp"
#include "http/connection_limit.hpp"
#include "http/net.hpp"

namespace jetperf::daemon {

class lingering_close : public std::enable_shared_from_this<lingering_close> {
 public:
  /// Takes the connection and its slot, held until the socket is closed.
  lingering_close(beast::tcp_stream&& stream, connection_limit::slot slot);
  /// Must be called on the stream's strand.
  void run();

 private:
  void do_discard();
  void on_discard(beast::error_code ec, std::size_t bytes);

  beast::tcp_stream stream_;
  connection_limit::slot slot_;
  char discard_[4096];
};

}  // namespace jetperf::daemon
