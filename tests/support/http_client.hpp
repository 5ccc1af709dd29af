#pragma once
// A raw HTTP/1.1 client for tests: plain sockets, one keep-alive connection, receive timeouts,
// and a way to send arbitrary bytes (malformed or oversized requests). Not thread-safe: use
// one per thread.
#include <chrono>
#include <map>
#include <string>

namespace jetperf::test {

struct http_result {
  int status = 0;  ///< 0 when the server closed the connection without an answer
  std::map<std::string, std::string> headers;  ///< names in lower case
  std::string body;
  std::string header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
};

class http_client {
 public:
  /// Connects lazily to 127.0.0.1:`port`. Throws std::runtime_error on socket errors/timeouts.
  explicit http_client(int port, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  ~http_client();
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  /// One request on the kept-alive connection (reconnecting once if the server closed it idle).
  /// Adds Host and, for a body or POST/PUT, Content-Length and a JSON Content-Type.
  http_result request(const std::string& method, const std::string& target, const std::string& body = {},
                      const std::map<std::string, std::string>& headers = {});
  /// Writes `bytes` as they are and reads one answer (status 0 if the server just closed).
  http_result send_raw(const std::string& bytes);
  void close();
  /// Requests sent on this object that reused an open connection.
  int reused() const { return reused_; }

 private:
  void connect();
  void write_all(const std::string& bytes);
  http_result read_response(bool* got_nothing);

  int port_;
  std::chrono::milliseconds timeout_;
  int fd_ = -1;
  std::string pending_;  ///< bytes read past the previous answer
  int reused_ = 0;
};

}  // namespace jetperf::test
