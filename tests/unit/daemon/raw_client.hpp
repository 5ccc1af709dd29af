#pragma once
// A blocking HTTP client over a plain socket with a receive timeout, so that a broken server
// fails a test instead of hanging it. Responses are parsed with Beast's parser.
#include <cstdint>
#include <string>

#include <boost/beast/http.hpp>

namespace jetperf::daemon::test {

class raw_client {
 public:
  explicit raw_client(std::uint16_t port);
  ~raw_client();
  raw_client(const raw_client&) = delete;
  raw_client& operator=(const raw_client&) = delete;

  bool connected() const { return fd_ >= 0; }
  /// Writes all bytes; false when the peer closed.
  bool send(const std::string& bytes);
  /// Parses one response (keeps bytes that follow for the next call). Throws on timeout,
  /// connection end before a whole response, or a parse error.
  boost::beast::http::response<boost::beast::http::string_body> read_response();
  /// Reads until `needle` has arrived `times` times in all (returns everything read so far) or
  /// throws on timeout.
  std::string read_until(const std::string& needle, int times = 1);
  /// Reads until the server closes; returns all bytes. Throws on timeout.
  std::string read_to_eof();
  /// One request with keep-alive, "Host" and "Content-Length" added.
  static std::string request(const std::string& method, const std::string& target,
                             const std::string& body = {}, const std::string& extra_headers = {});
  void close();

 private:
  /// Receives more bytes into pending_; false at end of stream.
  bool receive();
  int fd_ = -1;
  std::string pending_;
};

}  // namespace jetperf::daemon::test
