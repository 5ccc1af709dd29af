// Jobs an earlier jetperf stored open in today's daemon as they were: tests/fixtures/golden/ holds
// a database with one finished job of every kind and an interrupted one, and every view of them
// (the API's JSON and CSV, the client's tables) as the code that stored them answered, all made
// by tests/tools/make_golden_jobs.py. Today's daemon over a copy of that database must answer
// every view byte for byte as recorded, accept each stored spec again as it stands (what
// `jetperf rerun` sends) with the same number of points, and resume the interrupted job from its
// last finished point. A change of the middle (specs, kinds, protocols, rows) passes this unchanged.
// The stored jobs ran at 2201.6 MHz on a board in MODE_30W, whose CPU cap is 1728 MHz (issue 56:
// the simulator let that through); their specs are accepted again on a board in MAXN, the mode
// that allows them, and refused in MODE_30W (tests/sim/mode_caps_sim_test.cpp).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include <support/fixtures.hpp>
#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

#include "backbone_helpers.hpp"

using namespace jetperf;
using namespace jetperf::test;
using nlohmann::json;

namespace {

// Where the command job's program lived when it was stored (its spec names it).
constexpr const char* k_programs = "/tmp/jetperf-golden-programs";

std::string golden(const std::string& name) { return fixtures_dir() + "/golden/" + name; }

std::vector<std::vector<std::string>> tsv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(read_file(path));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::istringstream cols(line);
    for (std::string cell; std::getline(cols, cell, '\t');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Where two texts first part, for a failure that says what changed.
std::string first_difference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ha = static_cast<bool>(std::getline(a, la)), hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) return "same lines, different bytes";
    if (!ha || !hb || la != lb)
      return "line " + std::to_string(line) + ":\n  recorded: " + (ha ? la.substr(0, 600) : "<end>") +
             "\n  now:      " + (hb ? lb.substr(0, 600) : "<end>");
  }
}

class golden_jobs : public ::testing::Test {
 protected:
  // A fixture that cannot be set up fails every test, naming why (an exception thrown from
  // SetUpTestSuite would only skip them).
  static void SetUpTestSuite() {
    try {
      ::mkdir(k_programs, 0755);
      ::chmod(k_programs, 0755);
      copy_file(test_programs_dir() + "/marked_phases", std::string(k_programs) + "/marked_phases", 0755);
      state_ = std::make_unique<temp_dir>();
      ::chmod(state_->path().c_str(), 0755);
      copy_file(golden("jobs.db"), state_->file("jobs.db"), 0600);
      sim_board_in_mode(state_->file("sim"), "orin-agx", 0);  // MAXN
      daemon_ = std::make_unique<daemon_process>(std::vector<std::string>{
          "--db", state_->file("jobs.db"), "--board", "sim:orin-agx", "--sim-dir", state_->file("sim"),
          "--command-jobs", "true", "--command-user", "nobody", "--command-dirs", k_programs, "--runtime-dir",
          state_->file("run")});
    } catch (const std::exception& e) {
      setup_error_ = e.what();
    }
  }
  void SetUp() override { ASSERT_TRUE(setup_error_.empty()) << setup_error_; }
  static void TearDownTestSuite() {
    daemon_.reset();
    state_.reset();
  }
  inline static std::string setup_error_;
  inline static std::unique_ptr<temp_dir> state_;
  inline static std::unique_ptr<daemon_process> daemon_;
};

}  // namespace

TEST_F(golden_jobs, every_view_of_every_stored_job_reads_as_recorded) {
  http_client http(daemon_->port(), std::chrono::seconds(60));
  const auto views = tsv(golden("views.tsv"));
  ASSERT_GE(views.size(), 40u);
  for (const auto& v : views) {
    ASSERT_EQ(v.size(), 3u);
    const auto& [name, how, target] = std::tie(v[0], v[1], v[2]);
    std::string now;
    if (how == "http") {
      const auto r = http.request("GET", target);
      ASSERT_EQ(r.status, 200) << target << ": " << r.body.substr(0, 400);
      now = r.body;
    } else {
      const auto r = run_client(with_daemon(*daemon_, words(target)), {}, 120);
      ASSERT_EQ(r.exit_code, 0) << "jetperf " << target << ": " << r.err;
      now = r.out;
    }
    const auto recorded = read_file(golden(name));
    EXPECT_TRUE(now == recorded) << name << " (" << how << " " << target << ") differs at "
                                 << first_difference(recorded, now);
  }
}

TEST_F(golden_jobs, every_stored_spec_is_accepted_again_as_it_stands) {
  http_client http(daemon_->port(), std::chrono::seconds(60));
  const auto jobs = tsv(golden("jobs.tsv"));
  ASSERT_EQ(jobs.size(), 7u);
  std::set<std::string> kinds;
  for (const auto& row : jobs) {
    const auto id = row.at(0);
    const auto stored = json_of(http.request("GET", "/v1/jobs/" + id));
    kinds.insert(stored["kind"].get<std::string>());
    const json body{{"kind", stored["kind"]}, {"spec", stored["spec"]}, {"tags", stored["tags"]}, {"dry_run", true}};
    const auto r = http.request("POST", "/v1/jobs", body.dump(), bearer(daemon_->token()));
    ASSERT_EQ(r.status, 200) << "job " << id << ": " << r.body;
    const auto dry = json_of(r);
    // The spec as stored, plus the fields added since the fixture was made, at their defaults.
    auto expected = stored["spec"];
    if (stored["kind"] == "gemm" || stored["kind"] == "layers" || stored["kind"] == "multi_dnn" ||
        stored["kind"] == "command")
      expected.update(json{{"contention_threshold", 0.05}, {"max_retries", 2}});
    EXPECT_EQ(dry["spec"], expected) << "job " << id;
    EXPECT_EQ(dry["points"], stored["progress"]["total"]) << "job " << id << ": " << stored["progress"].dump();
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"idle", "gemm", "layers", "multi_dnn", "command"}));
}

TEST_F(golden_jobs, the_interrupted_job_resumes_after_its_last_finished_point) {
  http_client http(daemon_->port(), std::chrono::seconds(60));
  const auto jobs = tsv(golden("jobs.tsv"));
  const auto id = std::stoll(jobs.back().at(0));
  ASSERT_EQ(json_of(http.request("GET", "/v1/jobs/" + std::to_string(id)))["state"], "interrupted");
  const auto before = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results"))["rows"];
  ASSERT_GE(before.size(), 2u);
  ASSERT_LT(before.size(), 4u);
  const auto r = http.request("POST", "/v1/jobs/" + std::to_string(id) + "/resume", "", bearer(daemon_->token()));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(wait_state(http, id, {"succeeded", "partial", "failed"}, std::chrono::seconds(120)), "succeeded");
  const auto after = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results"))["rows"];
  ASSERT_EQ(after.size(), 4u);
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(after[i], before[i]) << "row " << i;
  // The stored spec's sizes, in order: the points went on where they stopped.
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(after[i]["m"], (std::vector<int>{64, 96, 128, 160})[i]) << after[i].dump();
}
