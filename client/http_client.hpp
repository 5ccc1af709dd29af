#pragma once
// A small synchronous HTTP/1.1 client over Beast with a deadline on every step. It keeps one
// keep-alive connection; transport failures become cli_error(exit_connect).
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include <boost/beast/core/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include "settings.hpp"
#include "sse_reader.hpp"

namespace jetperf::client {

/// The largest answer held whole (results of a 100k-point sweep are a few hundred MB at most).
constexpr std::uint64_t k_max_reply_bytes = 512ull << 20;
/// The longest event-stream line held while it arrives.
constexpr std::size_t k_max_event_line_bytes = 16u << 20;

struct http_reply {
  int status = 0;
  std::map<std::string, std::string> headers;  ///< names in lower case
  std::string body;
  std::string header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
};

class http_client {
 public:
  /// `token` (may be empty) is sent as "Authorization: Bearer" on every request.
  http_client(endpoint target, std::string token, std::chrono::milliseconds timeout);
  ~http_client();
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  http_reply request(const std::string& method, const std::string& target,
                     const std::string& body = std::string(),
                     const std::string& content_type = "application/json");

  /// POSTs the file at `path` as the body, read from disk as it is sent (never held whole), with
  /// the timeout per write rather than for the whole file. A server that answers before taking
  /// the whole body (401, 404, 413) gets its answer read all the same. cli_error(exit_usage) when
  /// the file cannot be opened.
  http_reply upload(const std::string& target, const std::string& path, const std::string& content_type);

  /// GET an event stream and hand each event to `on_event` until it returns false or the server
  /// ends the stream. Reads wait without a deadline (progress may be slow); connect and the
  /// response header keep the timeout. A non-200 answer is returned whole, with no events.
  http_reply stream(const std::string& target, const sse_reader::handler& on_event);

  /// Receives a part of a body; returns false to stop reading.
  using body_sink = std::function<bool(const char* data, std::size_t size)>;
  /// GET a body too large to hold (a trace export) and hand it to `sink` as it arrives, with the
  /// timeout per read rather than for the whole body. cli_error(exit_connect) when the body ends
  /// before it is whole. A non-2xx answer is returned whole, with nothing handed to `sink`.
  http_reply download(const std::string& target, const body_sink& sink);

  const endpoint& target() const { return target_; }

 private:
  struct impl;
  /// Reads the answer to a request just written; see the definition for its memory.
  static boost::beast::error_code read_whole(impl& io,
                                             boost::beast::http::response_parser<boost::beast::http::string_body>& parser);
  /// Connects unless a connection is open; throws cli_error(exit_connect).
  void open();
  /// GET on a connection of its own, closed after: a 2xx answer's body goes to `sink` as it
  /// arrives, until the sink returns false or the body ends (an error body, short, comes back
  /// whole). `read_deadline`: how long each read may wait for bytes. `complete` says whether the
  /// body was read to its end. `what` names the transfer in errors.
  http_reply get_body(const std::string& target, const std::string& accept, std::chrono::milliseconds read_deadline,
                      const body_sink& sink, const std::string& what, bool* complete);
  endpoint target_;
  std::string token_;
  std::chrono::milliseconds timeout_;
  std::unique_ptr<impl> impl_;
};

}  // namespace jetperf::client
