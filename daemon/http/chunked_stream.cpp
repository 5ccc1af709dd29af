#include "http/chunked_stream.hpp"

#include <exception>
#include <utility>

#include <spdlog/spdlog.h>

#include "http/lingering_close.hpp"
#include "http/message_conversion.hpp"
#include "http/work_pool.hpp"

namespace jetperf::daemon {

chunked_stream::chunked_stream(beast::tcp_stream&& stream, std::shared_ptr<const server_context> context,
                               connection_limit::slot slot, std::shared_ptr<api::body_source> source)
    : stream_(std::move(stream)), context_(std::move(context)), slot_(std::move(slot)), source_(std::move(source)) {}

void chunked_stream::run(const api::http_response& response, unsigned version) {
  chunked_ = version >= 11;
  set_beast_header(response, version, context_->server_name, header_.base());
  // One body per connection: it ends with the connection, as an event stream does.
  header_.keep_alive(false);
  if (chunked_) header_.chunked(true);
  serializer_.emplace(header_);
  stream_.expires_after(context_->limits.write_timeout);
  http::async_write_header(stream_, *serializer_,
                           beast::bind_front_handler(&chunked_stream::on_header, shared_from_this()));
}

void chunked_stream::on_header(beast::error_code ec, std::size_t) {
  stream_.expires_never();
  if (ec) return do_abort();
  do_produce();
}

void chunked_stream::do_produce() {
  auto self = shared_from_this();
  auto produce = [self] {
    bool more = false, failed = false;
    self->piece_.clear();
    try {
      more = self->source_->next(self->piece_);
    } catch (const std::exception& e) {
      spdlog::error("http: a streamed body failed after its header went out: {}", e.what());
      failed = true;
    }
    net::post(self->stream_.get_executor(), [self, more, failed] { self->on_produced(more, failed); });
  };
  if (context_->work && context_->work->post(produce)) return;
  // Every worker busy and the queue full: this piece is made on the io thread rather than the
  // stream stalled, since a refusal can no longer be answered.
  produce();
}

void chunked_stream::on_produced(bool more, bool failed) {
  if (failed) return do_abort();
  last_ = !more;
  // An empty chunk would read as the last one.
  if (piece_.empty() && !last_) return do_produce();
  do_write();
}

void chunked_stream::do_write() {
  auto done = beast::bind_front_handler(&chunked_stream::on_write, shared_from_this());
  stream_.expires_after(context_->limits.write_timeout);
  const auto piece = net::buffer(piece_);
  if (!chunked_) {
    if (piece_.empty()) return on_write({}, 0);
    return net::async_write(stream_, piece, std::move(done));
  }
  if (!last_) return net::async_write(stream_, http::make_chunk(piece), std::move(done));
  if (piece_.empty()) return net::async_write(stream_, http::make_chunk_last(), std::move(done));
  net::async_write(stream_, beast::buffers_cat(http::make_chunk(piece), http::make_chunk_last()), std::move(done));
}

void chunked_stream::on_write(beast::error_code ec, std::size_t) {
  stream_.expires_never();
  if (ec) {
    spdlog::debug("http: a streamed body ended early: {}", ec.message());
    return do_abort();
  }
  if (!last_) return do_produce();
  source_.reset();
  std::make_shared<lingering_close>(std::move(stream_), std::move(slot_))->run();
}

void chunked_stream::do_abort() {
  source_.reset();
  beast::error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
  stream_.socket().close(ignored);
}

}  // namespace jetperf::daemon
