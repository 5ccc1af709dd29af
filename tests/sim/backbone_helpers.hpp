#pragma once
// Small helpers shared by the backbone integration tests (real jetperfd + jetperf on loopback).
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <cstdint>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/platform/nvpmodel_conf.hpp>
#include <jetperf/sim/nvpmodel_program.hpp>
#include <jetperf/sim/sim_board.hpp>
#include <support/daemon_process.hpp>
#include <support/http_client.hpp>
#include <support/run_client.hpp>
#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

namespace jetperf::test {

/// A loopback port nothing listens on: bound once to get a free number, then closed (for a
/// program the test starts on it, or for a board that does not answer).
inline int free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    throw std::runtime_error("cannot find a free loopback port");
  ::close(fd);
  return ntohs(a.sin_port);
}

inline nlohmann::json json_of(const http_result& r) {
  auto j = nlohmann::json::parse(r.body, nullptr, false);
  return j.is_discarded() ? nlohmann::json() : j;
}

inline std::map<std::string, std::string> bearer(const std::string& token) {
  return {{"Authorization", "Bearer " + token}};
}

/// POSTs an idle job and returns its id (0 and a test failure when not accepted).
inline std::int64_t submit_idle(http_client& http, const std::string& token, double duration_s, int repeats,
                                const std::vector<std::string>& tags = {}) {
  const nlohmann::json body{{"kind", "idle"}, {"spec", {{"duration_s", duration_s}, {"repeats", repeats}}}, {"tags", tags}};
  const auto r = http.request("POST", "/v1/jobs", body.dump(), bearer(token));
  EXPECT_EQ(r.status, 201) << r.body;
  return json_of(r).value("id", std::int64_t{0});
}

inline std::string state_of(http_client& http, std::int64_t id) {
  const auto r = http.request("GET", "/v1/jobs/" + std::to_string(id));
  return json_of(r).value("state", std::string("?"));
}

/// Polls until the job is in one of `states`; returns the last state seen.
inline std::string wait_state(http_client& http, std::int64_t id, const std::set<std::string>& states,
                              std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string s;
  while (std::chrono::steady_clock::now() < deadline) {
    s = state_of(http, id);
    if (states.count(s)) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return s;
}

/// The job id in the client's "submitted job N ..." line; 0 when there is none.
inline std::int64_t submitted_id(const std::string& text) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("submitted job ([0-9]+)"))) return 0;
  return std::stoll(m[1]);
}

/// Client arguments: the daemon's address and token, then `args`.
inline std::vector<std::string> with_daemon(const daemon_process& d, std::vector<std::string> args) {
  auto all = d.client_args();
  all.insert(all.end(), args.begin(), args.end());
  return all;
}

/// A simulated board of `profile` made under `sim_dir` (what the daemon gets as --sim-dir) and
/// booted into power mode `mode`, which the daemon then serves as it is: for a suite whose "max"
/// must be the board's top clock (sim:orin-agx's default MODE_30W caps the CPU at 1728 MHz, and a
/// clock under the top holds the job's threads to a CPU quota: docs/simulator.md).
inline void sim_board_in_mode(const std::string& sim_dir, const std::string& profile, int mode) {
  sim::sim_create_options o;
  o.tools_dir = sim_tools_dir();
  const auto board = sim::sim_board::create(profile, sim_dir + "/" + profile, o);
  const auto conf = platform::parse_nvpmodel_conf(read_file(board.paths().nvpmodel_conf));
  sim::apply_nvpmodel_mode(board.layout(), conf, mode);
}

/// One jetperfd on a simulated AGX Orin, shared by every test of a suite (starting one per test
/// would dominate the suite's time), with the real client pointed at it.
class sim_orin_suite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sim_dir_ = std::make_unique<temp_dir>();
    daemon_ = std::make_unique<daemon_process>(std::vector<std::string>{"--board", "sim:orin-agx", "--sim-dir", sim_dir_->path()});
  }
  static void TearDownTestSuite() {
    daemon_.reset();
    sim_dir_.reset();
  }
  static client_result cli(std::vector<std::string> args, int timeout_s = 60) {
    return run_client(with_daemon(*daemon_, std::move(args)), {}, timeout_s);
  }
  inline static std::unique_ptr<temp_dir> sim_dir_;
  inline static std::unique_ptr<daemon_process> daemon_;
};

/// sim_orin_suite on a board in MAXN (power mode 0): "max" is the CPU's top clock, 2201.6 MHz.
class sim_orin_maxn_suite : public sim_orin_suite {
 protected:
  static void SetUpTestSuite() {
    sim_dir_ = std::make_unique<temp_dir>();
    sim_board_in_mode(sim_dir_->path(), "orin-agx", 0);
    daemon_ = std::make_unique<daemon_process>(std::vector<std::string>{"--board", "sim:orin-agx", "--sim-dir", sim_dir_->path()});
  }
};

/// Number of '\n' in a text.
inline int line_count(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace jetperf::test
