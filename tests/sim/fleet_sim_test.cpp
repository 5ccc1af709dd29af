// `jetperf fleet ...` against two real daemons on loopback (sim:orin-agx and sim:xavier-nx, each
// with its own token) and a third host where nothing listens: status lists both answering boards
// and reports the dead one with a non-zero exit; a gemm sweep submitted to all runs on both live
// boards (the dead one reported, the others still complete); the merged results hold both boards'
// rows with board and job_id columns and each job's provenance.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <set>

#include "board_csv_merge.hpp"

#include <support/silent_board.hpp>

#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

class fleet_sim : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<temp_dir>();
    orin_sim_ = std::make_unique<temp_dir>();
    nx_sim_ = std::make_unique<temp_dir>();
    orin_ = std::make_unique<daemon_process>(std::vector<std::string>{
        "--board", "sim:orin-agx", "--sim-dir", orin_sim_->path(), "--board-name", "orin-1"});
    nx_ = std::make_unique<daemon_process>(std::vector<std::string>{
        "--board", "sim:xavier-nx", "--sim-dir", nx_sim_->path(), "--board-name", "nx-1"});
    write_file(dir_->file("orin.token"), orin_->token() + "\n");
    write_file(dir_->file("nx.token"), nx_->token() + "\n");
    write_file(dir_->file("hosts"), "# the lab\n"
                                    "orin = " + orin_->address() + " " + dir_->file("orin.token") + "\n"
                                    "nx = " + nx_->address() + " " + dir_->file("nx.token") + "\n"
                                    "dead = 127.0.0.1:" + std::to_string(free_loopback_port()) + "\n");
  }
  static void TearDownTestSuite() {
    orin_.reset();
    nx_.reset();
    orin_sim_.reset();
    nx_sim_.reset();
    dir_.reset();
  }
  static client_result fleet(std::vector<std::string> args, int timeout_s = 120) {
    args.insert(args.begin(), {"fleet"});
    args.insert(args.begin() + 2, {"--hosts-file", dir_->file("hosts"), "--timeout", "5"});
    return run_client(args, {}, timeout_s);
  }

  inline static std::unique_ptr<temp_dir> dir_, orin_sim_, nx_sim_;
  inline static std::unique_ptr<daemon_process> orin_, nx_;
};

const std::vector<std::string> k_tiny_gemm = {"gemm",          "--device",     "cpu",   "--dtype",        "float",
                                              "--sizes",       "16,32",        "--tensor", "off",         "--threads",
                                              "1",             "--warmup-s",   "0",     "--min-time-s",   "0.01",
                                              "--max-time-s",  "0.05",         "--target-rse", "0.5",     "--min-samples",
                                              "2",             "--boundary-s", "0",     "--cooldown-s",   "0"};

TEST_F(fleet_sim, status_lists_both_boards_and_reports_the_dead_one) {
  auto r = fleet({"status"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;  // the dead board cannot be reached
  EXPECT_NE(r.out.find("AGX Orin"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Xavier NX"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("board dead"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("board orin"), std::string::npos) << r.err;

  // A board's first power reading comes with its sensor's first update after the start.
  nlohmann::json j;
  for (int attempt = 0; attempt < 50; ++attempt) {
    r = fleet({"status", "--on", "orin,nx", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    j = nlohmann::json::parse(r.out, nullptr, false);
    if (j.is_object() && j["boards"].size() == 2 && j["boards"][0].contains("power_w") &&
        j["boards"][1].contains("power_w"))
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_TRUE(j.is_object()) << r.out;
  ASSERT_EQ(j["boards"].size(), 2u);
  EXPECT_EQ(j["boards"][0]["board"], "orin");
  EXPECT_EQ(j["boards"][0]["model"], "AGX Orin");
  EXPECT_EQ(j["boards"][1]["model"], "Xavier NX");
  for (const auto& b : j["boards"]) {
    EXPECT_TRUE(b["simulated"].get<bool>());
    EXPECT_GT(b.value("power_w", 0.0), 0.0) << b.dump();
    // Same machine, same clock: the skew is within the round trip.
    EXPECT_LE(std::abs(b["skew_ms"].get<double>()), b["round_trip_ms"].get<double>() + 1.0) << b.dump();
    EXPECT_FALSE(b["mode"].get<std::string>().empty()) << b.dump();
  }
  EXPECT_EQ(fleet({"status", "--on", "nosuch"}).exit_code, 2);
}

TEST_F(fleet_sim, a_sweep_runs_on_both_boards_and_results_merge_with_provenance) {
  std::vector<std::string> args{"submit"};
  args.insert(args.end(), k_tiny_gemm.begin(), k_tiny_gemm.end());
  args.insert(args.end(), {"--tag", "fleet-sweep"});
  // All three boards: the dead one is reported, the other two get their job all the same.
  auto r = fleet(args);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("board dead"), std::string::npos) << r.err;
  const auto orin_id = submitted_id(r.out.substr(r.out.find("orin: ")));
  const auto nx_id = submitted_id(r.out.substr(r.out.find("nx: ")));
  ASSERT_GT(orin_id, 0) << r.out;
  ASSERT_GT(nx_id, 0) << r.out;

  r = fleet({"watch", "--on", "orin,nx", "--tag", "fleet-sweep", "--interval", "0.2"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("orin: job " + std::to_string(orin_id)), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("succeeded"), std::string::npos) << r.out;

  temp_dir out;
  r = fleet({"results", "--on", "orin,nx", "--tag", "fleet-sweep", "-o", out.path()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto rows = jetperf::client::parse_csv(read_file(out.file("results.csv")));
  ASSERT_EQ(rows.size(), 5u) << read_file(out.file("results.csv"));  // header + 2 sizes on each board
  ASSERT_EQ(rows[0][0], "board");
  std::size_t job_col = 0, status_col = 0;
  for (std::size_t c = 0; c < rows[0].size(); ++c) {
    if (rows[0][c] == "job_id") job_col = c;
    if (rows[0][c] == "status") status_col = c;
  }
  ASSERT_GT(job_col, 0u);
  std::multiset<std::string> seen;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), rows[0].size());
    seen.insert(rows[i][0] + "/" + rows[i][job_col]);
    EXPECT_EQ(rows[i][status_col], "ok");
  }
  EXPECT_EQ(seen.count("orin/" + std::to_string(orin_id)), 2u);
  EXPECT_EQ(seen.count("nx/" + std::to_string(nx_id)), 2u);
  // The boards' rails differ: the union of both headers, each board's own rails filled.
  const auto provenance = nlohmann::json::parse(read_file(out.file("provenance.json")));
  ASSERT_TRUE(provenance.contains("orin")) << provenance.dump();
  ASSERT_TRUE(provenance["nx"].contains(std::to_string(nx_id))) << provenance.dump();
  EXPECT_FALSE(provenance["orin"][std::to_string(orin_id)].empty()) << provenance.dump();
  EXPECT_NE(provenance["orin"][std::to_string(orin_id)].dump(), provenance["nx"][std::to_string(nx_id)].dump());

  // With the dead board the merged table still holds both live boards, and the exit says so.
  r = fleet({"results", "--tag", "fleet-sweep"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(jetperf::client::parse_csv(r.out).size(), 5u) << r.out;
}

TEST_F(fleet_sim, a_refusal_is_reported_and_fails_the_command) {
  auto r = fleet({"submit", "idle", "--set", "duration_s=-1", "--on", "orin,nx"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("board orin"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("spec.duration_s"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("submitted"), std::string::npos) << r.out;
  EXPECT_EQ(fleet({"submit", "idle", "--on", "orin,nosuch"}).exit_code, 2);
}

// A board whose event stream goes silent (no events, no keep-alive) held `watch` for ever: its
// reads now wait the daemon's keep-alive period (15 s) plus --timeout, then it ends naming why.
TEST(watch_sim, a_silent_event_stream_ends_the_watch_with_an_error) {
  silent_board board;
  const auto r = run_client({"--host", board.address(), "--timeout", "1", "watch", "1"}, {}, 60);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("event stream from " + board.address() + " failed: timed out"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace jetperf::test
