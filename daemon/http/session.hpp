#pragma once
// One HTTP/1.1 connection: reads requests with limits and timeouts, hands each to the request
// handler (on the work pool when it may wait, so the io threads stay free) and writes the answer;
// keeps the connection alive between requests. An SSE answer moves the connection into an
// sse_stream when a stream slot is free; a body produced in pieces into a chunked_stream.
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include <jetperf/api/http_types.hpp>

#include "http/beast.hpp"
#include "http/connection_limit.hpp"
#include "http/net.hpp"
#include "http/server_context.hpp"

namespace jetperf::daemon {

class session : public std::enable_shared_from_this<session> {
 public:
  session(tcp::socket&& socket, std::shared_ptr<const server_context> context,
          connection_limit::slot slot);
  /// Deletes an upload the handler did not take (a connection that broke off mid-upload).
  ~session();

  /// Starts reading requests.
  void run();
  /// Answers 503 (over the connection limit) without reading, then closes.
  void run_rejected();
  /// Puts the connection in the waiting list (once) while it waits for a request.
  void wait_for_request();
  /// Closes the connection if it still waits for a request (its slot is needed).
  void close_unserved();

 private:
  void do_read();
  void on_read_header(beast::error_code ec, std::size_t bytes);
  void on_read_body(beast::error_code ec, std::size_t bytes);
  void on_read_error(beast::error_code ec);
  void handle_request();
  /// Runs the handler on request_ (on the work pool when it may wait) and answers.
  void dispatch(unsigned version, bool keep_alive);
  /// A tokenless request on a kept slot: served once a waiting connection gives its slot up
  /// (tried `tries` times, k_room_retry apart), else 503.
  void make_room_then_serve(unsigned version, bool keep_alive, int tries);
  /// Answers the request read (on the work pool when its handler may wait).
  void serve(unsigned version, bool keep_alive);
  static constexpr std::chrono::milliseconds k_room_retry{5};
  static constexpr int k_room_tries = 100;
  /// A body_to_file request: admitted on its header, its body is written to a file under
  /// upload_dir as it arrives (upload_limit, one read timeout per read), then dispatched.
  void start_upload();
  void do_read_upload();
  void on_read_upload(beast::error_code ec, std::size_t bytes);
  void remove_upload();
  /// Whether any route takes uploads; whether the request being read is one (its start line).
  bool takes_uploads() const;
  bool is_upload();
  /// The handler's answer to request_ (never throws).
  api::http_response answer() const;
  /// Writes `response`, or starts its event stream.
  void finish(api::http_response& response, unsigned version, bool keep_alive);
  void do_write(api::http_response& response, unsigned version, bool keep_alive);
  void on_write(bool close, beast::error_code ec, std::size_t bytes);
  void start_stream(api::http_response& response, unsigned version);
  void start_chunked(api::http_response& response, unsigned version);
  /// Hands the connection to a lingering_close, so that the peer reads our last answer (an
  /// error, often) instead of a reset caused by unread data.
  void do_lingering_close();

  beast::tcp_stream stream_;
  std::shared_ptr<const server_context> context_;
  connection_limit::slot slot_;
  std::string remote_;     ///< "address:port", for logs and the API
  std::string remote_ip_;  ///< the address alone, for the per-address stream cap
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::optional<http::request_parser<http::file_body>> upload_parser_;
  std::string upload_path_;  ///< the upload's file until the handler has answered
  std::unique_ptr<upload_space::lease> upload_lease_;  ///< its disk, held until then too
  http::response<http::string_body> response_;
  api::http_request request_;
  bool first_request_ = true;
  std::uint64_t wait_ticket_ = 0;  ///< in context_->waiting while it waits for a request's header (0: not)
};

}  // namespace jetperf::daemon
