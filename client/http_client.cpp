#include "http_client.hpp"

#include <limits>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "cli_error.hpp"

namespace jetperf::client {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

// Beast's per-operation deadlines (tcp_stream::expires_after) only apply to async operations,
// so each step is started asynchronously and the io_context is run until it completes.
struct http_client::impl {
  net::io_context ioc;
  beast::tcp_stream stream{ioc};
  beast::flat_buffer buffer;
  bool connected = false;

  template <class Start>
  beast::error_code run(Start&& start) {
    beast::error_code result = net::error::would_block;
    start([&result](beast::error_code ec, auto&&...) { result = ec; });
    ioc.restart();
    ioc.run();
    return result;
  }

  void close() {
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream.socket().close(ignored);
    buffer.clear();
    connected = false;
  }
};

namespace {

// jetperfd writes a keep-alive comment into every event stream this often (daemon/http's
// sse_keepalive).
constexpr std::chrono::seconds k_stream_keepalive{15};

std::string reason(const beast::error_code& ec) {
  if (ec == beast::error::timeout) return "timed out";
  return ec.message();
}

template <class Message>
std::map<std::string, std::string> lower_headers(const Message& m) {
  std::map<std::string, std::string> out;
  for (const auto& f : m) {
    std::string name(f.name_string());
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out[name] = std::string(f.value());
  }
  return out;
}

// Room kept free in a body of unknown length before each read (a read adds at most 64 KiB).
constexpr std::size_t k_read_headroom = 1u << 20;
// A body of unknown length doubles up to here, then takes room for the most it may be at once.
constexpr std::size_t k_doubling_bytes = 16u << 20;

}  // namespace

// Reads an answer whole into parser's string. With a Content-Length the parser refuses one over
// its limit on the header and reserves the rest at once. Without one (chunked), a string left to
// grow by itself doubled from 512 to 1024 MiB, copying, on its way to the limit (1 GB resident for
// an answer it then refused): past 16 MiB it reserves the limit, address space whose pages are
// only taken as bytes arrive, so what is resident stays what was received.
beast::error_code http_client::read_whole(impl& io, http::response_parser<http::string_body>& parser) {
  beast::error_code ec = io.run([&](auto handler) { http::async_read_header(io.stream, io.buffer, parser, handler); });
  const bool unknown_length = !ec && !parser.content_length();
  while (!ec && !parser.is_done()) {
    if (unknown_length) {
      auto& body = parser.get().body();
      if (body.capacity() - body.size() < k_read_headroom)
        body.reserve(body.size() < k_doubling_bytes ? 2 * body.capacity() + k_read_headroom
                                                    : static_cast<std::size_t>(k_max_reply_bytes) + k_read_headroom);
    }
    ec = io.run([&](auto handler) { http::async_read_some(io.stream, io.buffer, parser, handler); });
  }
  return ec;
}

http_client::http_client(endpoint target, std::string token, std::chrono::milliseconds timeout)
    : target_(std::move(target)), token_(std::move(token)), timeout_(timeout), impl_(std::make_unique<impl>()) {}

http_client::~http_client() {
  if (impl_->connected) impl_->close();
}

void http_client::open() {
  if (impl_->connected) return;
  tcp::resolver resolver(impl_->ioc);
  beast::error_code ec;
  const auto endpoints = resolver.resolve(target_.host, target_.port, ec);
  if (ec) throw cli_error(exit_connect, "cannot connect to " + target_.text() + ": " + reason(ec));
  impl_->stream.expires_after(timeout_);
  ec = impl_->run([&](auto handler) { impl_->stream.async_connect(endpoints, handler); });
  if (ec) {
    impl_->close();
    throw cli_error(exit_connect, "cannot connect to " + target_.text() + ": " + reason(ec));
  }
  impl_->stream.socket().set_option(tcp::no_delay(true), ec);
  impl_->connected = true;
}

http_reply http_client::request(const std::string& method, const std::string& target,
                                const std::string& body, const std::string& content_type) {
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, target_.text());
  req.set(http::field::user_agent, "jetperf-cli");
  req.set(http::field::accept, "application/json");
  if (!token_.empty()) req.set(http::field::authorization, "Bearer " + token_);
  if (!body.empty() || method == "POST" || method == "PUT") {
    req.set(http::field::content_type, content_type);
    req.body() = body;
  }
  req.keep_alive(true);
  req.prepare_payload();

  // A reused keep-alive connection may have been closed by the server meanwhile: retry once on a
  // fresh connection when nothing of the answer arrived.
  for (int attempt = 0;; ++attempt) {
    const bool reused = impl_->connected;
    open();
    impl_->stream.expires_after(timeout_);
    auto ec = impl_->run([&](auto handler) { http::async_write(impl_->stream, req, handler); });
    http::response_parser<http::string_body> parser;
    // An answer is held whole: a bound keeps a wrong or hostile server from taking the memory.
    parser.body_limit(k_max_reply_bytes);
    if (!ec) {
      impl_->stream.expires_after(timeout_);
      ec = read_whole(*impl_, parser);
    }
    if (ec == http::error::body_limit) {
      impl_->close();
      throw cli_error(exit_connect, "the answer from " + target_.text() + " is larger than " +
                                        std::to_string(k_max_reply_bytes >> 20) +
                                        " MiB; ask for less (a narrower --where, CSV with -o, samples in pages)");
    }
    if (ec) {
      const bool nothing_read = !parser.got_some();
      impl_->close();
      if (reused && nothing_read && attempt == 0 && ec != beast::error::timeout) continue;
      throw cli_error(exit_connect, "request to " + target_.text() + " failed: " + reason(ec));
    }
    auto res = parser.release();
    http_reply reply;
    reply.status = static_cast<int>(res.result_int());
    reply.headers = lower_headers(res);
    reply.body = std::move(res.body());
    if (!res.keep_alive()) impl_->close();
    return reply;
  }
}

http_reply http_client::upload(const std::string& target, const std::string& path, const std::string& content_type) {
  http::request<http::file_body> req{http::verb::post, target, 11};
  beast::error_code ec;
  req.body().open(path.c_str(), beast::file_mode::scan, ec);
  if (ec) throw cli_error(exit_usage, "cannot read " + path + ": " + ec.message());
  req.set(http::field::host, target_.text());
  req.set(http::field::user_agent, "jetperf-cli");
  req.set(http::field::accept, "application/json");
  req.set(http::field::content_type, content_type);
  if (!token_.empty()) req.set(http::field::authorization, "Bearer " + token_);
  req.keep_alive(false);
  req.prepare_payload();
  if (impl_->connected) impl_->close();
  open();
  http::request_serializer<http::file_body> serializer{req};
  while (!ec && !serializer.is_done()) {
    impl_->stream.expires_after(timeout_);
    ec = impl_->run([&](auto handler) { http::async_write_some(impl_->stream, serializer, handler); });
  }
  // A refusal arrives before the body is through and the server stops reading: its answer is
  // still there to read even though the write failed.
  http::response_parser<http::string_body> parser;
  parser.body_limit(k_max_reply_bytes);
  impl_->stream.expires_after(timeout_);
  const auto read_ec = impl_->run([&](auto handler) { http::async_read(impl_->stream, impl_->buffer, parser, handler); });
  impl_->close();
  if (read_ec) throw cli_error(exit_connect, "upload to " + target_.text() + " failed: " + reason(ec ? ec : read_ec));
  auto res = parser.release();
  http_reply reply;
  reply.status = static_cast<int>(res.result_int());
  reply.headers = lower_headers(res);
  reply.body = std::move(res.body());
  return reply;
}

http_reply http_client::stream(const std::string& target, const sse_reader::handler& on_event) {
  sse_reader reader(k_max_event_line_bytes);
  bool complete = false;
  // Progress may be slow, but jetperfd writes a keep-alive comment every 15 s into every stream:
  // one silent for that plus the timeout is a board gone quiet (a watch waited on it for ever).
  return get_body(target, "text/event-stream", timeout_ + k_stream_keepalive,
                  [&](const char* data, std::size_t size) { return reader.feed(data, size, on_event); }, "event stream",
                  &complete);
}

http_reply http_client::download(const std::string& target, const body_sink& sink) {
  bool complete = false;
  auto reply = get_body(target, "application/json", timeout_, sink, "download", &complete);
  if (!complete) throw cli_error(exit_connect, "download from " + target_.text() + " failed: the body ended early");
  return reply;
}

http_reply http_client::get_body(const std::string& target, const std::string& accept,
                                 std::chrono::milliseconds read_deadline,
                                 const body_sink& sink, const std::string& what, bool* complete) {
  if (impl_->connected) impl_->close();
  open();
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, target_.text());
  req.set(http::field::user_agent, "jetperf-cli");
  req.set(http::field::accept, accept);
  if (!token_.empty()) req.set(http::field::authorization, "Bearer " + token_);
  impl_->stream.expires_after(timeout_);
  auto ec = impl_->run([&](auto handler) { http::async_write(impl_->stream, req, handler); });
  http::response_parser<http::buffer_body> parser;
  // No bound: the body is never held. A number rather than boost::none: Boost 1.74's parser,
  // reading a header on its own, refuses every Content-Length when the limit is none.
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  if (!ec) {
    impl_->stream.expires_after(timeout_);
    ec = impl_->run([&](auto handler) { http::async_read_header(impl_->stream, impl_->buffer, parser, handler); });
  }
  if (ec) {
    impl_->close();
    throw cli_error(exit_connect, "request to " + target_.text() + " failed: " + reason(ec));
  }
  http_reply reply;
  reply.status = static_cast<int>(parser.get().result_int());
  reply.headers = lower_headers(parser.get());
  const bool ok = reply.status >= 200 && reply.status < 300;
  bool go_on = true;
  char chunk[8192];
  while (go_on && !parser.is_done()) {
    parser.get().body().data = chunk;
    parser.get().body().size = sizeof(chunk);
    // An error body is short: the timeout for it.
    impl_->stream.expires_after(ok ? read_deadline : timeout_);
    ec = impl_->run([&](auto handler) { http::async_read_some(impl_->stream, impl_->buffer, parser, handler); });
    const std::size_t got = sizeof(chunk) - parser.get().body().size;
    try {
      if (ok)
        go_on = got == 0 || sink(chunk, got);
      else if (reply.body.size() + got <= k_max_event_line_bytes)
        reply.body.append(chunk, got);
    } catch (const std::length_error& e) {
      impl_->close();
      throw cli_error(exit_connect, what + " from " + target_.text() + " failed: " + e.what());
    }
    if (ec == http::error::need_buffer) ec = {};
    if (ec == http::error::end_of_stream || ec == net::error::eof) break;
    if (ec) {
      impl_->close();
      throw cli_error(exit_connect, what + " from " + target_.text() + " failed: " + reason(ec));
    }
  }
  *complete = parser.is_done();
  // The connection is not reused: the server may still be writing to it.
  impl_->close();
  return reply;
}

}  // namespace jetperf::client
