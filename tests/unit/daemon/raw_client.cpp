#include "raw_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

namespace jetperf::daemon::test {

namespace http = boost::beast::http;

raw_client::raw_client(std::uint16_t port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  timeval tv{5, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) close();
}

raw_client::~raw_client() { close(); }

void raw_client::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool raw_client::send(const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool raw_client::receive() {
  char buf[16384];
  for (;;) {
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n > 0) {
      pending_.append(buf, static_cast<std::size_t>(n));
      return true;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) throw std::runtime_error("receive timed out");
    return false;  // reset by the peer counts as the end
  }
}

http::response<http::string_body> raw_client::read_response() {
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  for (;;) {
    boost::beast::error_code ec;
    if (!pending_.empty()) {
      const std::size_t used = parser.put(boost::asio::buffer(pending_), ec);
      pending_.erase(0, used);
      if (!ec && parser.is_done()) return parser.release();
      if (ec && ec != http::error::need_more) throw std::runtime_error("parse: " + ec.message());
      if (!ec && used > 0) continue;
    }
    if (!receive()) {
      parser.put_eof(ec);
      if (!ec && parser.is_done()) return parser.release();
      throw std::runtime_error("connection ended before a whole response");
    }
  }
}

std::string raw_client::read_until(const std::string& needle, int times) {
  const auto count = [&] {
    int n = 0;
    for (auto at = pending_.find(needle); at != std::string::npos; at = pending_.find(needle, at + needle.size())) ++n;
    return n;
  };
  while (count() < times) {
    if (!receive()) throw std::runtime_error("connection ended before '" + needle + "'");
  }
  return pending_;
}

std::string raw_client::read_to_eof() {
  while (receive()) {
  }
  return pending_;
}

std::string raw_client::request(const std::string& method, const std::string& target,
                                const std::string& body, const std::string& extra_headers) {
  std::string r = method + " " + target + " HTTP/1.1\r\nHost: localhost\r\n" + extra_headers;
  if (!body.empty() || method == "POST" || method == "PUT") {
    r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  }
  r += "\r\n" + body;
  return r;
}

}  // namespace jetperf::daemon::test
