// A lab network full of readers cannot lock the token holder out: hundreds of telemetry streams
// get their own cap (per address too), idle connections fill every slot but those kept for the
// token, and the token holder still submits, cancels and asks for health. Then cancelling a job
// (which waits for its safe point) does not stall the API.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <memory>
#include <string>
#include <vector>
#include <thread>

#include <support/eventually.hpp>

#include "backbone_helpers.hpp"

using namespace jetperf::test;

namespace {

// A connection that sends one request and reads only the response's status line.
class raw_connection {
 public:
  raw_connection(int port, const std::string& request) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval tv{5, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return;
    ::send(fd_, request.data(), request.size(), MSG_NOSIGNAL);
    std::string got;
    char buf[1024];
    while (got.find("\r\n") == std::string::npos) {
      const auto n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
    }
    if (got.rfind("HTTP/1.1 ", 0) == 0) status_ = std::stoi(got.substr(9, 3));
  }
  ~raw_connection() {
    if (fd_ >= 0) ::close(fd_);
  }
  int status() const { return status_; }
  /// Whether the daemon has closed it (what is left of its answer read and dropped).
  bool closed_by_server() {
    if (fd_ < 0 || closed_) return true;
    char buf[1024];
    for (;;) {
      const auto n = ::recv(fd_, buf, sizeof buf, MSG_DONTWAIT);
      if (n > 0) continue;
      closed_ = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
      return closed_;
    }
  }

 private:
  int fd_ = -1;
  int status_ = 0;
  bool closed_ = false;
};

// A connection that sends nothing: its descriptor, -1 when the connect failed.
int connect_silently(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::string get(const std::string& target) {
  return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
}

}  // namespace

TEST(lockout, readers_cannot_lock_the_token_holder_out) {
  temp_dir sim;
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--max-connections", "64",
                    "--max-streams", "16", "--max-streams-per-address", "8"});
  // 100 telemetry readers from one address: 8 are served, the rest answered 503 at once.
  std::vector<std::unique_ptr<raw_connection>> streams;
  int served = 0, refused = 0;
  for (int i = 0; i < 100; ++i) {
    streams.push_back(std::make_unique<raw_connection>(d.port(), get("/v1/telemetry/stream")));
    const int s = streams.back()->status();
    served += s == 200;
    refused += s == 503;
  }
  EXPECT_EQ(served, 8);
  EXPECT_EQ(refused, 92);
  // Idle keep-alive readers: more than the slots the streams left. The cap holds: the newest are
  // served as the oldest idle ones give their slots up (or are refused), never above 64.
  std::vector<std::unique_ptr<raw_connection>> idle;
  for (int i = 0; i < 70; ++i) idle.push_back(std::make_unique<raw_connection>(d.port(), get("/v1/time")));
  const auto closed = [&idle] {
    return std::count_if(idle.begin(), idle.end(), [](const auto& c) { return c->closed_by_server(); });
  };
  EXPECT_TRUE(eventually([&] { return closed() >= 70 - (64 - 8); }, std::chrono::seconds(5))) << closed() << " closed";
  // The token holder still gets in: health, a job, its cancellation.
  http_client http(d.port(), std::chrono::seconds(20));
  const auto health = http.request("GET", "/v1/health", {}, bearer(d.token()));
  EXPECT_EQ(health.status, 200) << health.body;
  const auto job = submit_idle(http, d.token(), 5.0, 1);
  ASSERT_GT(job, 0);
  const auto cancelled = http.request("DELETE", "/v1/jobs/" + std::to_string(job), {}, bearer(d.token()));
  EXPECT_EQ(cancelled.status, 200) << cancelled.body;
  // Without the token, a reader gets in too: an idle keep-alive gives its slot up for it (issue
  // 58: 260 keep-alives that had each sent one request locked every tokenless reader out).
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // idle past the silent mark
  http_client anonymous(d.port(), std::chrono::seconds(20));
  const auto anon = anonymous.request("GET", "/v1/health");
  EXPECT_EQ(anon.status, 200) << anon.body;
}

// Issue 35, 13: 300 sockets that connect and send nothing, refilled as they are closed, kept the
// token holder out 13 times in 15. Now the one that has waited longest for its first request is
// closed when a connection needs its slot: the token holder gets in every time.
TEST(lockout, sockets_that_send_nothing_cannot_keep_the_token_holder_out) {
  temp_dir sim;
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--max-connections", "64"});
  const auto open_silent = [&d] { return connect_silently(d.port()); };
  std::vector<int> silent;
  for (int i = 0; i < 300; ++i) silent.push_back(open_silent());
  int admitted = 0;
  for (int attempt = 0; attempt < 15; ++attempt) {
    // Refilled before each attempt, as the attack did.
    for (int i = 0; i < 20; ++i) silent.push_back(open_silent());
    http_client http(d.port(), std::chrono::seconds(10));
    const auto health = http.request("GET", "/v1/health", {}, bearer(d.token()));
    admitted += health.status == 200;
  }
  EXPECT_EQ(admitted, 15);
  for (int fd : silent)
    if (fd >= 0) ::close(fd);
}

// Issue 58: 300 connections that send nothing, refilled by an attacker, made /v1/health and
// /metrics answer 503 to every tokenless reader (15 of 15): a freed slot always counted as one
// kept for the token. A tokenless request on a kept slot is served once a connection that only
// waits gives its slot up; the token holder keeps getting in.
TEST(lockout, sockets_that_send_nothing_cannot_keep_tokenless_readers_out) {
  temp_dir sim;
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--max-connections", "64"});
  const auto open_silent = [&d] { return connect_silently(d.port()); };
  std::vector<int> silent;
  for (int i = 0; i < 300; ++i) silent.push_back(open_silent());
  int health = 0, metrics = 0, holder = 0;
  for (int attempt = 0; attempt < 10; ++attempt) {
    for (int i = 0; i < 20; ++i) silent.push_back(open_silent());
    http_client reader(d.port(), std::chrono::seconds(10));
    health += reader.request("GET", "/v1/health").status == 200;
    http_client scraper(d.port(), std::chrono::seconds(10));
    metrics += scraper.request("GET", "/metrics").status == 200;
    http_client http(d.port(), std::chrono::seconds(10));
    holder += http.request("GET", "/v1/health", {}, bearer(d.token())).status == 200;
  }
  EXPECT_GE(health, 9);
  EXPECT_GE(metrics, 9);
  EXPECT_EQ(holder, 10);
  for (int fd : silent)
    if (fd >= 0) ::close(fd);
}

// Idle keep-alives that each sent one request fill every slot: a new tokenless reader is served
// once the oldest of them gives its slot up, not refused.
TEST(lockout, idle_keep_alives_give_their_slots_up_before_a_reader_is_refused) {
  temp_dir sim;
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--max-connections", "64"});
  std::vector<std::unique_ptr<raw_connection>> idle;
  for (int i = 0; i < 260; ++i) idle.push_back(std::make_unique<raw_connection>(d.port(), get("/v1/time")));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // idle past the silent mark
  int served = 0;
  for (int attempt = 0; attempt < 10; ++attempt) {
    http_client reader(d.port(), std::chrono::seconds(10));
    served += reader.request("GET", "/metrics").status == 200;
  }
  EXPECT_GE(served, 9);
}

