#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

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

// The whole daemon in-process: real store, job service and router behind the HTTP server.
TEST(app, serves_the_api_and_stops_on_sigterm) {
  jetperf::test::temp_dir dir;
  daemon_config c;
  c.listen_port = 0;
  c.db_path = dir.file("state/jetperf.db");
  c.token_file = dir.file("state/token");
  c.ready_file = dir.file("ready");
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

}  // namespace
}  // namespace jetperf::daemon
