#include "http/session.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <utility>

#include <unistd.h>

#include <spdlog/spdlog.h>

#include <jetperf/api/error_mapping.hpp>

#include "http/chunked_stream.hpp"
#include "http/lingering_close.hpp"
#include "http/message_conversion.hpp"
#include "http/sse_stream.hpp"
#include "http/work_pool.hpp"

namespace jetperf::daemon {

namespace {

// How long a connection on a reserved slot may take to send its request.
constexpr auto reserved_read_timeout = std::chrono::seconds(5);

// RFC 9112 6.3: a request whose Transfer-Encoding does not end in chunked has no way to tell
// where its body ends, and must be refused rather than read as empty.
bool transfer_encoding_ends_in_chunked(const std::string& value) {
  auto last = value.substr(value.rfind(',') == std::string::npos ? 0 : value.rfind(',') + 1);
  last.erase(std::remove_if(last.begin(), last.end(), [](unsigned char c) { return std::isspace(c); }), last.end());
  std::transform(last.begin(), last.end(), last.begin(), [](unsigned char c) { return std::tolower(c); });
  return last == "chunked";
}

const std::string k_continue = "HTTP/1.1 100 Continue\r\n\r\n";

// What writing an upload's file fails with, as against its connection failing.
bool is_storage_error(const beast::error_code& ec) {
  if (ec.category() != boost::system::system_category() && ec.category() != boost::system::generic_category())
    return false;
  const int e = ec.value();
  return e == ENOSPC || e == EDQUOT || e == EFBIG || e == EIO || e == EROFS;
}

bool expects_continue(const std::string& value) {
  std::string v = value;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  return v == "100-continue";
}

}  // namespace

session::~session() {
  remove_upload();
  if (wait_ticket_) context_->waiting->remove(wait_ticket_);
}

session::session(tcp::socket&& socket, std::shared_ptr<const server_context> context,
                 connection_limit::slot slot)
    : stream_(std::move(socket)), context_(std::move(context)), slot_(std::move(slot)) {
  beast::error_code ec;
  const auto ep = stream_.socket().remote_endpoint(ec);
  remote_ip_ = ec ? "unknown" : ep.address().to_string();
  remote_ = ec ? "unknown" : remote_ip_ + ":" + std::to_string(ep.port());
}

void session::run() {
  // Until its first header arrives, the connection may be closed for one that needs the slot.
  wait_for_request();
  // The socket's executor is a strand made by the listener; start on it.
  net::dispatch(stream_.get_executor(),
                beast::bind_front_handler(&session::do_read, shared_from_this()));
}

void session::run_rejected() {
  auto self = shared_from_this();
  net::dispatch(stream_.get_executor(), [self] {
    auto res = api::error_body(503, "unavailable", "too many connections; retry later");
    self->do_write(res, 11, false);
  });
}

void session::wait_for_request() {
  if (wait_ticket_) return;
  wait_ticket_ = context_->waiting->add([weak = weak_from_this()] {
    if (auto self = weak.lock()) self->close_unserved();
  });
}

void session::close_unserved() {
  net::post(stream_.get_executor(), [self = shared_from_this()] {
    if (self->wait_ticket_ == 0) return;  // its header came first
    spdlog::debug("http: closing {}, which waits for a request, for a connection that needs the slot", self->remote_);
    self->stream_.close();
  });
}

void session::do_read() {
  // An idle keep-alive is as closable as a silent newcomer while it waits for its next request.
  wait_for_request();
  upload_parser_.reset();
  request_.body_file.clear();
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(context_->limits.header_limit));
  // Beast refuses a Content-Length over the body limit while it reads the header, before the
  // route is known: the header gets the larger upload limit, and the body of any other route
  // its own (on_read_header).
  parser_->body_limit(takes_uploads() ? std::max<std::uint64_t>(context_->limits.body_limit, context_->limits.upload_limit)
                                      : context_->limits.body_limit);
  // A reserved slot is for a request with the token, not for a connection that sends nothing.
  const auto wait = first_request_ ? context_->limits.header_timeout : context_->limits.idle_timeout;
  stream_.expires_after(slot_.reserved() ? std::min<std::chrono::steady_clock::duration>(wait, reserved_read_timeout) : wait);
  http::async_read_header(stream_, buffer_, *parser_,
                          beast::bind_front_handler(&session::on_read_header, shared_from_this()));
}

void session::on_read_header(beast::error_code ec, std::size_t) {
  if (ec) return on_read_error(ec);
  if (wait_ticket_) {
    context_->waiting->remove(wait_ticket_);
    wait_ticket_ = 0;
  }
  const auto& req = parser_->get();
  const auto te = req[http::field::transfer_encoding];
  if (!te.empty() && !transfer_encoding_ends_in_chunked(std::string(te))) {
    auto res = api::error_body(400, "bad_request",
                               "Transfer-Encoding '" + std::string(te) + "' does not end in chunked: the body's length is unknown",
                               "Transfer-Encoding");
    return do_write(res, req.version(), false);
  }
  if (takes_uploads()) {
    to_api_request(parser_->get(), remote_, request_);
    if (context_->handlers.body_to_file(request_)) return start_upload();
  }
  const auto length = parser_->content_length();
  if (length && *length > context_->limits.body_limit) return on_read_error(http::error::body_limit);
  parser_->body_limit(context_->limits.body_limit);
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
  if (ec == http::error::body_limit && is_upload()) {
    res = api::error_body(413, "payload_too_large",
                          "upload exceeds " + std::to_string(context_->limits.upload_limit) + " bytes (max_trace_upload_mb)",
                          "body");
  } else if (ec == http::error::body_limit) {
    res = api::error_body(413, "payload_too_large",
                          "request body exceeds " + std::to_string(context_->limits.body_limit) + " bytes", "body");
  } else if (ec == http::error::header_limit) {
    res = api::error_body(431, "header_too_large",
                          "request header exceeds " + std::to_string(context_->limits.header_limit) + " bytes",
                          "header");
  } else if (ec.category() == http::make_error_code(http::error::bad_target).category()) {
    res = api::error_body(400, "bad_request", "malformed HTTP request: " + ec.message());
  } else {
    // A socket error: nobody is left to answer.
    spdlog::debug("http: {}: read failed: {}", remote_, ec.message());
    return;
  }
  spdlog::debug("http: {}: {} ({})", remote_, res.status, ec.message());
  do_write(res, 11, false);
}

api::http_response session::answer() const {
  try {
    return context_->handlers.handle(request_);
  } catch (const std::exception& e) {
    // The router never throws; a handler that does must not take the server down.
    spdlog::error("http: handler failed for {} {}: {}", request_.method, request_.target, e.what());
    return api::error_body(500, "internal", "internal error");
  }
}

void session::start_upload() {
  const auto& req = parser_->get();
  const unsigned version = req.version();
  // Refused on the header (no token, unknown job, a full job): the body is never read, and the
  // connection closes after the answer since its unread body would follow.
  if (context_->handlers.admit) {
    if (auto refused = context_->handlers.admit(request_)) return do_write(*refused, version, false);
  }
  // Its disk, reserved before a byte of it is read: its declared length, else the most it may be.
  const auto length = parser_->content_length();
  if (length && *length > context_->limits.upload_limit) return on_read_error(http::error::body_limit);
  if (context_->uploads) {
    api::http_response refusal;
    upload_lease_ = context_->uploads->reserve(length ? *length : context_->limits.upload_limit, &refusal);
    if (!upload_lease_) return do_write(refusal, version, false);
  }
  static std::atomic<std::uint64_t> counter{0};
  upload_path_ = context_->upload_dir + "/upload-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1)) + ".part";
  const bool send_continue = expects_continue(request_.header("expect"));
  upload_parser_.emplace(std::move(*parser_));
  upload_parser_->body_limit(context_->limits.upload_limit);
  beast::error_code ec;
  upload_parser_->get().body().open(upload_path_.c_str(), beast::file_mode::write_new, ec);
  if (ec) {
    spdlog::error("http: {}: cannot create {}: {}", remote_, upload_path_, ec.message());
    upload_path_.clear();
    auto res = api::error_body(500, "internal", "the upload cannot be stored");
    return do_write(res, version, false);
  }
  // An empty body (Content-Length: 0) is complete with the header: answered now (the route says
  // what is wrong with it), not after a read that would wait out the timeout.
  if (upload_parser_->is_done()) return on_read_upload({}, 0);
  if (!send_continue) return do_read_upload();
  stream_.expires_after(context_->limits.write_timeout);
  net::async_write(stream_, net::buffer(k_continue), [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (!ec) self->do_read_upload();
  });
}

void session::do_read_upload() {
  // A deadline per read rather than for the whole body: a large trace over a slow link goes on
  // as long as bytes keep coming.
  stream_.expires_after(context_->limits.read_timeout);
  http::async_read_some(stream_, buffer_, *upload_parser_,
                        beast::bind_front_handler(&session::on_read_upload, shared_from_this()));
}

void session::on_read_upload(beast::error_code ec, std::size_t) {
  if (ec) {
    remove_upload();
    if (is_storage_error(ec)) {
      // The file could not be written (a full disk, a file size limit): the client is still
      // there to be told, and the daemon's log says it too.
      spdlog::error("http: {}: an upload could not be written under {}: {}", remote_, context_->upload_dir,
                    ec.message());
      auto res = api::error_body(507, "insufficient_storage", "the upload could not be stored: " + ec.message(), "body");
      return do_write(res, 11, false);
    }
    return on_read_error(ec);
  }
  if (!upload_parser_->is_done()) return do_read_upload();
  auto& req = upload_parser_->get();
  req.body().close();
  request_.body_file = upload_path_;
  dispatch(req.version(), req.keep_alive());
}

bool session::takes_uploads() const {
  return context_->handlers.body_to_file && !context_->upload_dir.empty();
}

bool session::is_upload() {
  if (upload_parser_) return true;
  if (!takes_uploads() || !parser_) return false;
  // The start line is parsed before any field, so method and target are there even when the
  // header failed on its Content-Length.
  to_api_request(parser_->get(), remote_, request_);
  return context_->handlers.body_to_file(request_);
}

void session::remove_upload() {
  upload_lease_.reset();
  if (upload_path_.empty()) return;
  std::remove(upload_path_.c_str());  // gone already when the handler kept it
  upload_path_.clear();
}

void session::handle_request() {
  auto& req = parser_->get();
  to_api_request(req, remote_, request_);
  dispatch(req.version(), req.keep_alive());
}

void session::dispatch(unsigned version, bool keep_alive) {
  const auto& h = context_->handlers;
  if (slot_.reserved() && !(h.authenticated && h.authenticated(request_)))
    return make_room_then_serve(version, keep_alive, k_room_tries);
  serve(version, keep_alive);
}

void session::make_room_then_serve(unsigned version, bool keep_alive, int tries) {
  // A tokenless request on a slot kept for the token is served when a connection that only waits
  // (silent, or an idle keep-alive) gives its slot up for it: readers are not locked out by
  // sockets that send nothing, and the kept slots stay kept. Those waiting may all be newer than
  // the silent mark (an attacker refilling): it tries again shortly, as a newcomer at the limit
  // does (listener::admit_later), before it is refused.
  if (context_->waiting->close_oldest(first_request_wait::k_silent_after)) return serve(version, keep_alive);
  if (tries <= 1) {
    // Free the reserved slot at once: the answer and the lingering close must not hold it.
    slot_.release();
    auto res = api::error_body(503, "unavailable",
                               "too many connections: the last ones are kept for requests with the token; retry later");
    return do_write(res, version, false);
  }
  auto timer = std::make_shared<net::steady_timer>(stream_.get_executor());
  timer->expires_after(k_room_retry);
  timer->async_wait([self = shared_from_this(), timer, version, keep_alive, tries](beast::error_code ec) {
    if (ec) return;
    self->make_room_then_serve(version, keep_alive, tries - 1);
  });
}

void session::serve(unsigned version, bool keep_alive) {
  const auto& h = context_->handlers;
  if (context_->work && h.blocking && h.blocking(request_)) {
    // The handler may wait (a subprocess, a cancellation): off the io threads, then back on
    // this connection's strand. The session reads nothing meanwhile, so request_ stays put.
    auto self = shared_from_this();
    const bool queued = context_->work->post([self, version, keep_alive] {
      auto res = std::make_shared<api::http_response>(self->answer());
      net::post(self->stream_.get_executor(),
                [self, res, version, keep_alive] { self->finish(*res, version, keep_alive); });
    });
    if (queued) return;
    auto res = api::error_body(503, "unavailable", "the daemon is busy with other requests that wait; retry later");
    return do_write(res, version, keep_alive);
  }
  auto res = answer();
  finish(res, version, keep_alive);
}

void session::finish(api::http_response& response, unsigned version, bool keep_alive) {
  if (request_.method == "HEAD") {
    // The GET's header only: a stream or a body source is never started, its producers stop.
    if (response.stream) response.stream->close();
    response.stream.reset();
    response.chunks.reset();
    return do_write(response, version, keep_alive);
  }
  if (response.stream) return start_stream(response, version);
  if (response.chunks) return start_chunked(response, version);
  do_write(response, version, keep_alive);
}

void session::do_write(api::http_response& response, unsigned version, bool keep_alive) {
  // Every answer comes after the handler: an upload it did not keep goes now.
  remove_upload();
  if (response.status < 100 || response.status > 599) response.status = 500;
  to_beast_response(response, version, keep_alive, context_->server_name, response_);
  if (request_.method == "HEAD") {
    // The length the GET's body would have, and no body.
    const auto length = response_.body().size();
    response_.body().clear();
    response_.content_length(length);
  }
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
  std::string why;
  stream_limit::slot stream_slot;
  if (slot_.reserved()) {
    slot_.release();
    why = "too many connections: the last ones are kept for requests, not event streams; retry later";
  } else if (context_->streams) {
    stream_slot = stream_limit::try_acquire(context_->streams, remote_ip_, &why);
  }
  if (!why.empty()) {
    // Nobody will read the channel: its producers must stop.
    response.stream->close();
    auto res = api::error_body(503, "unavailable", why);
    res.headers.emplace_back("Retry-After", "10");
    return do_write(res, version, false);
  }
  auto stream = std::make_shared<sse_stream>(std::move(stream_), context_, std::move(slot_), std::move(stream_slot),
                                             std::move(response.stream));
  stream->run(response, version);
}

void session::start_chunked(api::http_response& response, unsigned version) {
  remove_upload();
  if (response.status < 100 || response.status > 599) response.status = 500;
  auto body = std::move(response.chunks);
  auto stream = std::make_shared<chunked_stream>(std::move(stream_), context_, std::move(slot_), std::move(body));
  stream->run(response, version);
}

void session::do_lingering_close() {
  std::make_shared<lingering_close>(std::move(stream_), std::move(slot_))->run();
}

}  // namespace jetperf::daemon
