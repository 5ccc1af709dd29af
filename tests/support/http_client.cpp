#include <support/http_client.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <boost/beast/http.hpp>

namespace jetperf::test {

namespace http = boost::beast::http;

http_client::http_client(int port, std::chrono::milliseconds timeout) : port_(port), timeout_(timeout) {}

http_client::~http_client() { close(); }

void http_client::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  pending_.clear();
}

void http_client::connect() {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::runtime_error("socket: " + std::string(std::strerror(errno)));
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout_.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((timeout_.count() % 1000) * 1000);
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port_));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    const std::string why = std::strerror(errno);
    close();
    throw std::runtime_error("connect to 127.0.0.1:" + std::to_string(port_) + ": " + why);
  }
}

void http_client::write_all(const std::string& bytes) {
  std::size_t off = 0;
  while (off < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    // The server may answer (413, 400) and close before reading everything: stop writing and
    // read its answer.
    if (n <= 0) return;
    off += static_cast<std::size_t>(n);
  }
}

http_result http_client::read_response(bool* got_nothing) {
  http::response_parser<http::string_body> parser;
  parser.body_limit(boost::none);
  parser.eager(true);
  *got_nothing = true;
  http_result result;
  boost::beast::error_code ec;
  for (;;) {
    if (!pending_.empty()) {
      *got_nothing = false;
      const auto used = parser.put(boost::asio::buffer(pending_), ec);
      pending_.erase(0, used);
      if (ec == http::error::need_more) {
        ec = {};
      } else if (ec) {
        throw std::runtime_error("bad HTTP response: " + ec.message());
      }
      if (parser.is_done()) break;
      if (used > 0 && !pending_.empty()) continue;
    }
    char buf[16384];
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      throw std::runtime_error("timed out waiting for the answer");
    if (n <= 0) {
      // Closed (or reset): an answer delimited by the close ends here.
      if (parser.got_some()) {
        parser.put_eof(ec);
        if (ec) throw std::runtime_error("connection closed mid-answer: " + ec.message());
        break;
      }
      close();
      return result;
    }
    pending_.append(buf, static_cast<std::size_t>(n));
  }
  const auto& res = parser.get();
  result.status = static_cast<int>(res.result_int());
  for (const auto& f : res) {
    std::string name(f.name_string());
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    result.headers[name] = std::string(f.value());
  }
  result.body = res.body();
  if (!res.keep_alive()) close();
  return result;
}

http_result http_client::send_raw(const std::string& bytes) {
  if (fd_ < 0) connect();
  write_all(bytes);
  bool nothing = true;
  return read_response(&nothing);
}

http_result http_client::request(const std::string& method, const std::string& target, const std::string& body,
                                 const std::map<std::string, std::string>& headers) {
  std::string req = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port_) + "\r\n";
  bool has_type = false;
  for (const auto& [k, v] : headers) {
    req += k + ": " + v + "\r\n";
    if (k == "Content-Type" || k == "content-type") has_type = true;
  }
  if (!body.empty() || method == "POST" || method == "PUT") {
    if (!has_type) req += "Content-Type: application/json\r\n";
    req += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  }
  req += "\r\n";
  req += body;
  for (int attempt = 0;; ++attempt) {
    const bool reusing = fd_ >= 0;
    if (!reusing) connect();
    write_all(req);
    bool nothing = true;
    auto r = read_response(&nothing);
    if (r.status == 0 && nothing && reusing && attempt == 0) continue;
    if (reusing) ++reused_;
    return r;
  }
}

}  // namespace jetperf::test
