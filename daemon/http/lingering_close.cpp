#include "http/lingering_close.hpp"

#include <chrono>
#include <utility>

namespace jetperf::daemon {

namespace {

// How long a closing connection keeps draining the peer's unread bytes.
constexpr auto linger_time = std::chrono::seconds(2);

}  // namespace

lingering_close::lingering_close(beast::tcp_stream&& stream, connection_limit::slot slot)
    : stream_(std::move(stream)), slot_(std::move(slot)) {}

void lingering_close::run() {
  beast::error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  // One deadline for the whole drain: a peer that keeps sending does not keep the slot.
  stream_.expires_after(linger_time);
  do_discard();
}

void lingering_close::do_discard() {
  stream_.async_read_some(net::buffer(discard_),
                          beast::bind_front_handler(&lingering_close::on_discard, shared_from_this()));
}

void lingering_close::on_discard(beast::error_code ec, std::size_t) {
  if (!ec) return do_discard();
  beast::error_code ignored;
  stream_.socket().close(ignored);
}

}  // namespace jetperf::daemon
