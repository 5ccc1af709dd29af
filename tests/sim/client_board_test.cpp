// The jetperf CLI's board commands (board, mode, clocks, top) against the real jetperfd serving
// the simulated AGX Orin: outputs, exit codes and one-line errors.
#include <regex>

#include <support/eventually.hpp>
#include <support/temp_dir.hpp>

#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

class client_board : public sim_orin_suite {
 protected:
  static nlohmann::json json_out(const client_result& r) {
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    return j.is_discarded() ? nlohmann::json() : j;
  }
};

TEST_F(client_board, board_summarises_identity_modes_clocks_and_rails) {
  auto r = cli({"board"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("(simulated)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("L4T:       36.4.3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 MODE_30W (default)"), std::string::npos) << r.out;
  // The GPU list of the profile: 114.75 MHz to 1300.5 MHz in 13 steps.
  EXPECT_NE(r.out.find("gpu:       115-1301 MHz, 13 steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("VDD_GPU_SOC"), std::string::npos) << r.out;

  r = cli({"--json", "board"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json_out(r);
  EXPECT_EQ(j.value("simulated", false), true) << r.out;
  EXPECT_EQ(j["modes"].size(), 4u) << r.out;
}

TEST_F(client_board, mode_lists_marks_current_and_switches) {
  auto r = cli({"mode"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("power mode: 2 MODE_30W"), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n\*\s+2\s+MODE_30W)"))) << r.out;

  // Every other mode of this profile changes GPU power gating, so it needs a reboot: refused
  // (409) without --force, and the board stays as it was.
  r = cli({"mode", "set", "MAXN"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("reboot"), std::string::npos) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  r = cli({"--json", "mode"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_out(r).value("id", -1), 2) << r.out;
  r = cli({"mode", "set", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("power mode set to 2 MODE_30W"), std::string::npos) << r.out;
  r = cli({"--json", "mode", "set", "MODE_30W"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_out(r).value("name", std::string()), "MODE_30W") << r.out;

  r = cli({"mode", "set", "99"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("(field: id)"), std::string::npos) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  r = cli({"mode", "set", "NO_SUCH_MODE"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("(field: name)"), std::string::npos) << r.err;

  r = cli({"clocks", "restore"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = cli({"--json", "mode"});
  EXPECT_EQ(json_out(r).value("id", -1), 2) << r.out;
}

TEST_F(client_board, clocks_lock_and_restore) {
  auto r = cli({"clocks", "lock"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("at least one of --gpu, --cpu, --emc"), std::string::npos) << r.err;
  r = cli({"clocks", "lock", "--gpu", "fast"});
  EXPECT_EQ(r.exit_code, 2) << r.err;

  r = cli({"clocks", "lock", "--gpu", "min"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("snapshot held: yes"), std::string::npos) << r.out;
  r = cli({"--json", "clocks"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = json_out(r);
  EXPECT_EQ(j.value("gpu_freq_hz", nlohmann::json()), 114750000) << r.out;
  EXPECT_EQ(j.value("armed", false), true) << r.out;
  r = cli({"clocks"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // OFFERED: the GPU steps MODE_30W allows (its cap is 624.75 MHz: 6 of the 13).
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\ngpu\s+Hz\s+114750000\s+114750000\s+114750000\s+yes\s+6)")))
      << r.out;

  // A frequency the board does not offer: the daemon's 400 names the field.
  r = cli({"clocks", "lock", "--gpu", "123"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("(field: gpu)"), std::string::npos) << r.err;

  r = cli({"clocks", "restore"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("clocks restored"), std::string::npos) << r.out;
  r = cli({"--json", "clocks"});
  j = json_out(r);
  EXPECT_EQ(j.value("armed", true), false) << r.out;
  EXPECT_NE(j.value("gpu_min_hz", nlohmann::json()), j.value("gpu_max_hz", nlohmann::json())) << r.out;
}

TEST_F(client_board, top_prints_the_requested_number_of_updates) {
  // The daemon answers before its sampler's first tick: top shows what the sampler has.
  http_client http(daemon_->port(), std::chrono::seconds(10));
  ASSERT_TRUE(eventually([&] {
    const auto t = json_of(http.request("GET", "/v1/telemetry"));
    for (const auto& c : t.value("channels", nlohmann::json::array()))
      if (c.value("name", std::string()) == "rail.VDD_GPU_SOC" && c.value("value", nlohmann::json()).is_number()) return true;
    return false;
  }, std::chrono::seconds(10)));
  auto r = run_client(with_daemon(*daemon_, {"top", "--count", "2", "--interval-ms", "200"}), {}, 20);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(line_count(r.out), 2) << r.out;
  EXPECT_NE(r.out.find("update 1 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("update 2 "), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(VDD_GPU_SOC=[0-9.]+W)"))) << r.out;
  EXPECT_EQ(r.out.find("\x1b["), std::string::npos) << "no terminal codes into a pipe";

  r = run_client(with_daemon(*daemon_, {"--json", "top", "-n", "1"}), {}, 20);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json_out(r);
  EXPECT_TRUE(j.contains("channels") && j["channels"].is_array() && !j["channels"].empty()) << r.out;
}

TEST(client_board_offline, no_daemon_is_exit_3) {
  const auto r = run_client({"--host", "127.0.0.1:1", "--timeout", "2", "board"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
}

}  // namespace
}  // namespace jetperf::test
