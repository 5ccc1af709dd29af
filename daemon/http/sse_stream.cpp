#include "http/sse_stream.hpp"

#include <cstdio>
#include <utility>

namespace jetperf::daemon {

sse_stream::sse_stream(beast::tcp_stream&& stream, std::shared_ptr<const server_context> context,
                       connection_limit::slot slot, stream_limit::slot stream_slot,
                       std::shared_ptr<api::sse_channel> channel)
    : stream_(std::move(stream)),
      context_(std::move(context)),
      slot_(std::move(slot)),
      stream_slot_(std::move(stream_slot)),
      channel_(std::move(channel)),
      keepalive_(stream_.get_executor()) {
  // A client that stops reading must not grow the daemon's memory.
  channel_->set_limit(context_->limits.stream_buffer_bytes);
  if (context_->channels) context_->channels->add(channel_);
}

sse_stream::~sse_stream() {
  // Also reached when the server stops with the stream open: producers must stop pushing.
  channel_->close();
}

void sse_stream::run(const api::http_response& response, unsigned version) {
  chunked_ = version >= 11;
  header_.version(version);
  header_.result(response.status >= 100 && response.status <= 599
                     ? static_cast<unsigned>(response.status)
                     : 200u);
  header_.set(http::field::server, context_->server_name);
  header_.set(http::field::content_type, "text/event-stream");
  header_.set(http::field::cache_control, "no-cache");
  for (const auto& [name, value] : response.headers) header_.insert(name, value);
  // One stream per connection: it ends with the connection, so a client never waits on a
  // keep-alive connection that a finished stream left behind.
  header_.keep_alive(false);
  if (chunked_) header_.chunked(true);
  serializer_.emplace(header_);
  stream_.expires_after(context_->limits.write_timeout);
  http::async_write_header(stream_, *serializer_,
                           beast::bind_front_handler(&sse_stream::on_header, shared_from_this()));
}

void sse_stream::on_header(beast::error_code ec, std::size_t) {
  stream_.expires_never();
  if (ec) return do_close();
  std::weak_ptr<sse_stream> weak = weak_from_this();
  auto executor = stream_.get_executor();
  // Producers call this from their own threads; the work happens on our strand.
  channel_->set_notifier([weak, executor] {
    net::post(executor, [weak] {
      if (auto self = weak.lock()) self->do_flush();
    });
  });
  do_watch_peer();
  do_keepalive();
}

void sse_stream::do_flush() {
  // Frames that cannot be dropped piled up beyond the bound: the client is too slow to follow.
  // Closing cancels a write that is stuck on the full socket, too.
  if (!closed_ && channel_->overflowed()) return do_close();
  if (writing_ || closed_ || finished_) return;
  frames_.clear();
  const bool finished = channel_->drain(frames_);
  std::size_t size = 0;
  for (const auto& f : frames_) size += f.size();
  out_.clear();
  if (size > 0) {
    if (chunked_) {
      char head[24];
      std::snprintf(head, sizeof head, "%zx\r\n", size);
      out_ += head;
    }
    for (const auto& f : frames_) out_ += f;
    if (chunked_) out_ += "\r\n";
  }
  if (finished) {
    finished_ = true;
    if (chunked_) out_ += "0\r\n\r\n";
  }
  if (out_.empty()) return;
  writing_ = true;
  stream_.expires_after(context_->limits.write_timeout);
  net::async_write(stream_, net::buffer(out_),
                   beast::bind_front_handler(&sse_stream::on_write, shared_from_this()));
}

void sse_stream::on_write(beast::error_code ec, std::size_t) {
  writing_ = false;
  stream_.expires_never();
  if (ec || finished_) return do_close();
  // Frames that arrived during the write were announced while writing_ was set.
  do_flush();
}

void sse_stream::do_keepalive() {
  keepalive_.expires_after(context_->limits.sse_keepalive);
  std::weak_ptr<sse_stream> weak = weak_from_this();
  keepalive_.async_wait([weak](beast::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->closed_ || self->finished_) return;
    self->channel_->push_comment("keep-alive");
    self->do_keepalive();
  });
}

void sse_stream::do_watch_peer() {
  // A client sends nothing on an event stream; a completed read means it closed or reset.
  stream_.async_read_some(net::buffer(peer_buffer_),
                          beast::bind_front_handler(&sse_stream::on_peer, shared_from_this()));
}

void sse_stream::on_peer(beast::error_code ec, std::size_t) {
  if (ec) return do_close();
  do_watch_peer();
}

void sse_stream::do_close() {
  if (closed_) return;
  closed_ = true;
  channel_->close();
  keepalive_.cancel();
  beast::error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
  stream_.socket().close(ignored);
}

}  // namespace jetperf::daemon
