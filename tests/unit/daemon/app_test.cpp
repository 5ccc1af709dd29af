#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <support/temp_dir.hpp>

#include "app.hpp"
#include "raw_client.hpp"

namespace jetperf::daemon {
namespace {

using namespace std::chrono_literals;

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// A daemon on an ephemeral loopback port with its state in `dir`.
daemon_config config_in(const jetperf::test::temp_dir& dir) {
  daemon_config c;
  c.listen_port = 0;
  c.db_path = dir.file("state/jetperf.db");
  c.token_file = dir.file("state/token");
  c.ready_file = dir.file("ready");
  return c;
}

// Runs app::run() on a thread until SIGTERM; the port comes from the ready file.
class running_app {
 public:
  explicit running_app(const daemon_config& c) : daemon_(c), ready_file_(c.ready_file) {
    runner_ = std::thread([this] {
      try {
        status_ = daemon_.run();
      } catch (const std::exception& e) {
        failure_ = e.what();
      }
      finished_ = true;
    });
  }
  ~running_app() {
    if (runner_.joinable()) stop();
  }
  /// The port, once the ready file is written (0 when it is not within 10 s).
  std::uint16_t port() {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!exists(ready_file_) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(10ms);
    if (!exists(ready_file_)) return 0;
    const std::string address = jetperf::test::read_file(ready_file_);
    return static_cast<std::uint16_t>(std::stoi(address.substr(address.rfind(':') + 1)));
  }
  /// SIGTERM, then run()'s status.
  int stop() {
    // The signal set is registered before the ready file is written: only then can SIGTERM not
    // kill the test itself.
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!exists(ready_file_) && !finished_ && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(10ms);
    if (!finished_) ::kill(::getpid(), SIGTERM);
    runner_.join();
    return status_;
  }
  /// Why run() threw, once it has returned.
  std::string failure() const { return finished_ ? failure_ : std::string("(still running)"); }

 private:
  app daemon_;
  std::string ready_file_;
  int status_ = -1;
  std::string failure_;
  std::atomic<bool> finished_{false};
  std::thread runner_;
};

// The whole daemon in-process: real store, job service and router behind the HTTP server.
TEST(app, serves_the_api_and_stops_on_sigterm) {
  jetperf::test::temp_dir dir;
  auto c = config_in(dir);
  c.threads = 1;
  app daemon(c);

  int status = -1;
  std::string failure;
  std::thread runner([&] {
    try {
      status = daemon.run();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!exists(c.ready_file) && failure.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_TRUE(exists(c.ready_file)) << failure;

  const std::string address = jetperf::test::read_file(c.ready_file);
  ASSERT_EQ(address.rfind("127.0.0.1:", 0), 0u) << address;
  ASSERT_EQ(address.back(), '\n');
  const auto port = static_cast<std::uint16_t>(std::stoi(address.substr(10)));
  {
    test::raw_client client(port);
    ASSERT_TRUE(client.send(test::raw_client::request("GET", "/v1/health")));
    const auto res = client.read_response();
    EXPECT_EQ(res.result_int(), 200);
    EXPECT_EQ(nlohmann::json::parse(res.body())["status"], "ok");
    // Changes need the token from the token file.
    ASSERT_TRUE(client.send(test::raw_client::request("POST", "/v1/jobs", "{}",
                                                      "Content-Type: application/json\r\n")));
    EXPECT_EQ(client.read_response().result_int(), 401);
  }
  EXPECT_TRUE(exists(c.db_path));
  EXPECT_EQ(jetperf::test::read_file(c.token_file).size(), 65u);

  // The signal set is registered before the ready file is written, so this cannot kill us.
  ASSERT_EQ(::kill(::getpid(), SIGTERM), 0);
  runner.join();
  EXPECT_EQ(status, 0) << failure;
}

// Shutdown with event streams open. The telemetry feed publishes into the streams every 100 ms,
// which posts into the HTTP server's io_context, so it must stop before the server is destroyed
// (app::shutdown). A sanitizer build (JETPERF_SANITIZE) reports a post into the destroyed
// io_context or a thread left using a component already gone; each round gives the timing
// another chance to show it.
TEST(app, stops_while_telemetry_streams_are_open) {
  for (int round = 0; round < 3; ++round) {
    jetperf::test::temp_dir dir;
    auto c = config_in(dir);
    c.sim_dir = dir.file("sim");
    c.threads = 2;
    // 0 ("a quarter of max_connections") is resolved by the config parser, which this skips.
    c.max_streams = 8;
    running_app daemon(c);
    const auto port = daemon.port();
    ASSERT_NE(port, 0) << daemon.failure();
    std::vector<std::unique_ptr<test::raw_client>> streams;
    for (int i = 0; i < 4; ++i) {
      streams.push_back(std::make_unique<test::raw_client>(port));
      ASSERT_TRUE(streams.back()->send(test::raw_client::request("GET", "/v1/telemetry/stream?interval_ms=100")));
    }
    // The first frame is sent at once, the next ones come from the feed.
    for (auto& s : streams) s->read_until("event: sample", 3);
    EXPECT_EQ(daemon.stop(), 0) << daemon.failure();
    // The server closed every stream on its way down.
    for (auto& s : streams) s->read_to_eof();
  }
}

}  // namespace
}  // namespace jetperf::daemon
