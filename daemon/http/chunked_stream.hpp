#pragma once
// An answer whose body an api::body_source produces piece by piece (a job's trace export): writes
// the response header once (Transfer-Encoding: chunked for HTTP/1.1; for HTTP/1.0 the body ends
// with the connection), then each piece as a chunk, and the last chunk. The next piece is asked
// for only once the previous one is written (a slow client slows the producer instead of growing
// a buffer), on the work pool since it may read the store. A write that fails (the client went
// away) or times out (it stopped reading) ends the stream and drops the source; so does a source
// that throws, without the last chunk, so the client sees a broken transfer. The connection
// closes after the body, as after an event stream.
#include <memory>
#include <optional>
#include <string>

#include <jetperf/api/http_types.hpp>

#include "http/beast.hpp"
#include "http/connection_limit.hpp"
#include "http/net.hpp"
#include "http/server_context.hpp"

namespace jetperf::daemon {

class chunked_stream : public std::enable_shared_from_this<chunked_stream> {
 public:
  chunked_stream(beast::tcp_stream&& stream, std::shared_ptr<const server_context> context, connection_limit::slot slot,
                 std::shared_ptr<api::body_source> source);

  /// Writes the header of `response` (status, Content-Type, extra headers), then the body. Must
  /// be called on the stream's strand.
  void run(const api::http_response& response, unsigned version);

 private:
  void on_header(beast::error_code ec, std::size_t bytes);
  /// Asks the source for the next piece, on the work pool (here when no worker takes it).
  void do_produce();
  void on_produced(bool more, bool failed);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void do_abort();

  beast::tcp_stream stream_;
  std::shared_ptr<const server_context> context_;
  connection_limit::slot slot_;
  std::shared_ptr<api::body_source> source_;
  http::response<http::empty_body> header_;
  std::optional<http::response_serializer<http::empty_body>> serializer_;
  std::string piece_;  ///< written by the producer, then by the strand: never both at once
  bool chunked_ = true;
  bool last_ = false;
};

}  // namespace jetperf::daemon
