#pragma once
// A "board" on loopback that answers a job's state as running, then opens its event stream and
// says nothing more, not even jetperfd's keep-alive comments: what a hung daemon, or a dead link
// behind a proxy, looks like to a client that watches.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <support/loopback_listener.hpp>

namespace jetperf::test {

class silent_board {
 public:
  silent_board() {
    fd_ = listen_on_loopback(&port_);
    thread_ = std::thread([this] { serve(); });
  }
  ~silent_board() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
    for (int c : held_) ::close(c);
  }
  silent_board(const silent_board&) = delete;
  silent_board& operator=(const silent_board&) = delete;

  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  void serve() {
    while (!stop_) {
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      std::string request;
      char buf[1024];
      while (request.find("\r\n\r\n") == std::string::npos) {
        const auto n = ::read(c, buf, sizeof buf);
        if (n <= 0) break;
        request.append(buf, static_cast<std::size_t>(n));
      }
      if (request.find("/events") != std::string::npos) {
        write_all(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n");
        held_.push_back(c);  // open, and silent
        continue;
      }
      const std::string body = R"({"id":1,"kind":"idle","state":"running","progress":{"done":0,"total":2}})";
      write_all(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
                       std::to_string(body.size()) + "\r\n\r\n" + body);
      ::close(c);
    }
  }
  static void write_all(int fd, const std::string& s) {
    for (std::size_t off = 0; off < s.size();) {
      const auto n = ::write(fd, s.data() + off, s.size() - off);
      if (n <= 0) return;
      off += static_cast<std::size_t>(n);
    }
  }

  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::vector<int> held_;
  std::thread thread_;
};

}  // namespace jetperf::test
