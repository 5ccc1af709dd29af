#pragma once
// A Server-Sent-Events answer: writes the response header, then the frames of an sse_channel as
// they arrive (chunked for HTTP/1.1, until close for HTTP/1.0), a ": keep-alive" comment at an
// interval, and closes when the channel finishes, when the client goes away (closing the channel
// then, so producers stop) or when it reads so slowly that the channel overflowed its bound.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/api/http_types.hpp>
#include <jetperf/api/sse_channel.hpp>

#include "http/beast.hpp"
#include "http/connection_limit.hpp"
#include "http/net.hpp"
#include "http/server_context.hpp"

namespace jetperf::daemon {

class sse_stream : public std::enable_shared_from_this<sse_stream> {
 public:
  sse_stream(beast::tcp_stream&& stream, std::shared_ptr<const server_context> context,
             connection_limit::slot slot, stream_limit::slot stream_slot, std::shared_ptr<api::sse_channel> channel);
  ~sse_stream();

  /// Writes the header of `response` (status and extra headers), then streams. Must be called
  /// on the stream's strand.
  void run(const api::http_response& response, unsigned version);

 private:
  void on_header(beast::error_code ec, std::size_t bytes);
  void do_flush();
  void on_write(beast::error_code ec, std::size_t bytes);
  void do_keepalive();
  void do_watch_peer();
  void on_peer(beast::error_code ec, std::size_t bytes);
  void do_close();

  beast::tcp_stream stream_;
  std::shared_ptr<const server_context> context_;
  connection_limit::slot slot_;
  stream_limit::slot stream_slot_;
  std::shared_ptr<api::sse_channel> channel_;
  net::steady_timer keepalive_;
  http::response<http::empty_body> header_;
  std::optional<http::response_serializer<http::empty_body>> serializer_;
  std::vector<std::string> frames_;
  std::string out_;
  bool chunked_ = true;
  bool writing_ = false;
  bool finished_ = false;
  bool closed_ = false;
  char peer_buffer_[512];
};

}  // namespace jetperf::daemon
