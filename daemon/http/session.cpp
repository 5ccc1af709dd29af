#include "http/session.hpp"

#include <exception>
#include <utility>

#include <spdlog/spdlog.h>

#include "http/error_response.hpp"
#include "http/message_conversion.hpp"
#include "http/sse_stream.hpp"

namespace jetperf::daemon {

namespace {

std::string endpoint_text(const tcp::socket& socket) {
  beast::error_code ec;
  auto ep = socket.remote_endpoint(ec);
  if (ec) return "unknown";
  return ep.address().to_string() + ":" + std::to_string(ep.port());
}

// How long a closing connection keeps draining the peer's unread bytes.
constexpr auto linger_time = std::chrono::seconds(2);

}  // namespace

session::session(tcp::socket&& socket, std::shared_ptr<const server_context> context,
                 connection_limit::slot slot)
    : stream_(std::move(socket)), context_(std::move(context)), slot_(std::move(slot)) {
  remote_ = endpoint_text(stream_.socket());
}

void session::run() {
  // The socket's executor is a strand made by the listener; start on it.
  net::dispatch(stream_.get_executor(),
                beast::bind_front_handler(&session::do_read, shared_from_this()));
}

void session::run_rejected() {
  auto self = shared_from_this();
  net::dispatch(stream_.get_executor(), [self] {
    auto res = error_response(503, "unavailable", "too many connections; retry later");
    self->do_write(res, 11, false);
  });
}

void session::do_read() {
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(context_->limits.header_limit));
  parser_->body_limit(context_->limits.body_limit);
  stream_.expires_after(first_request_ ? context_->limits.read_timeout
                                       : context_->limits.idle_timeout);
  http::async_read_header(stream_, buffer_, *parser_,
                          beast::bind_front_handler(&session::on_read_header, shared_from_this()));
}

void session::on_read_header(beast::error_code ec, std::size_t) {
  if (ec) return on_read_error(ec);
  if (parser_->is_done()) return handle_request();
  // The idle timeout covered the wait for the header; the body gets the read timeout.
  stream_.expires_after(context_->limits.read_timeout);
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&session::on_read_body, shared_from_this()));
}

void session::on_read_body(beast::error_code ec, std::size_t) {
  if (ec) return on_read_error(ec);
  handle_request();
}

void session::on_read_error(beast::error_code ec) {
  if (ec == http::error::end_of_stream || ec == net::error::eof ||
      ec == http::error::partial_message) {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    return;
  }
  if (ec == beast::error::timeout || ec == net::error::operation_aborted) return;
  api::http_response res;
  if (ec == http::error::body_limit) {
    res = error_response(413, "payload_too_large",
                         "request body exceeds " + std::to_string(context_->limits.body_limit) +
                             " bytes",
                         "body");
  } else if (ec == http::error::header_limit) {
    res = error_response(431, "header_too_large",
                         "request header exceeds " +
                             std::to_string(context_->limits.header_limit) + " bytes",
                         "header");
  } else if (ec.category() == http::make_error_code(http::error::bad_target).category()) {
    res = error_response(400, "bad_request", "malformed HTTP request: " + ec.message());
  } else {
    // A socket error: nobody is left to answer.
    spdlog::debug("http: {}: read failed: {}", remote_, ec.message());
    return;
  }
  spdlog::debug("http: {}: {} ({})", remote_, res.status, ec.message());
  do_write(res, 11, false);
}

void session::handle_request() {
  auto& req = parser_->get();
  const unsigned version = req.version();
  const bool keep_alive = req.keep_alive();
  to_api_request(req, remote_, request_);
  api::http_response res;
  try {
    res = context_->handler(request_);
  } catch (const std::exception& e) {
    // The router never throws; a handler that does must not take the server down.
    spdlog::error("http: handler failed for {} {}: {}", request_.method, request_.target, e.what());
    res = error_response(500, "internal", "internal error");
  }
  if (res.stream) return start_stream(res, version);
  do_write(res, version, keep_alive);
}

void session::do_write(api::http_response& response, unsigned version, bool keep_alive) {
  if (response.status < 100 || response.status > 599) response.status = 500;
  to_beast_response(response, version, keep_alive, context_->server_name, response_);
  stream_.expires_after(context_->limits.write_timeout);
  http::async_write(stream_, response_,
                    beast::bind_front_handler(&session::on_write, shared_from_this(),
                                              response_.need_eof()));
}

void session::on_write(bool close, beast::error_code ec, std::size_t) {
  if (ec) return;
  if (close) return do_lingering_close();
  first_request_ = false;
  do_read();
}

void session::start_stream(api::http_response& response, unsigned version) {
  auto stream = std::make_shared<sse_stream>(std::move(stream_), context_, std::move(slot_),
                                             std::move(response.stream));
  stream->run(response, version);
}

void session::do_lingering_close() {
  beast::error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  stream_.expires_after(linger_time);
  stream_.async_read_some(net::buffer(discard_),
                          beast::bind_front_handler(&session::on_discard, shared_from_this()));
}

void session::on_discard(beast::error_code ec, std::size_t) {
  if (ec) {
    beast::error_code ignored;
    stream_.socket().close(ignored);
    return;
  }
  stream_.async_read_some(net::buffer(discard_),
                          beast::bind_front_handler(&session::on_discard, shared_from_this()));
}

}  // namespace jetperf::daemon
