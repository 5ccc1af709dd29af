// The jetperf CLI against a real daemon: outputs, exit codes and one-line errors.
#include <fstream>
#include <regex>

#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

class client_backbone : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { daemon_ = new daemon_process(); }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  static client_result cli(std::vector<std::string> args, const std::map<std::string, std::string>& env = {}) {
    return run_client(with_daemon(*daemon_, std::move(args)), env);
  }
  static std::int64_t id_in(const std::string& text) {
    std::smatch m;
    if (!std::regex_search(text, m, std::regex("submitted job ([0-9]+)"))) return 0;
    return std::stoll(m[1]);
  }
  static daemon_process* daemon_;
};
daemon_process* client_backbone::daemon_ = nullptr;

TEST_F(client_backbone, health_prints_the_address_and_json) {
  auto r = cli({"health"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(daemon_->address()), std::string::npos) << r.out;
  r = cli({"--json", "health"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::parse(r.out, nullptr, false).is_object()) << r.out;
}

TEST_F(client_backbone, submit_watch_show_list_results) {
  auto r = cli({"submit", "idle", "--duration", "0.1", "--repeats", "3", "--tag", "cli-a", "--watch"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto id = id_in(r.out);
  ASSERT_GT(id, 0) << r.out;
  const std::string job = "job " + std::to_string(id);
  EXPECT_NE(r.out.find("(idle, 3 points, estimate"), std::string::npos) << r.out;
  // Not a terminal: plain progress lines, then the final state.
  EXPECT_NE(r.out.find(job + ": 3/3 points"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(job + ": succeeded"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;

  r = cli({"show", std::to_string(id)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("state:     succeeded"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("progress:  3/3 points"), std::string::npos) << r.out;

  r = cli({"--json", "show", std::to_string(id)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["state"], "succeeded");
  EXPECT_EQ(j["tags"], nlohmann::json::array({"cli-a"}));
  EXPECT_DOUBLE_EQ(j["spec"]["duration_s"].get<double>(), 0.1);

  r = cli({"jobs", "--tag", "cli-a"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("ID", 0), 0u) << r.out;
  EXPECT_EQ(line_count(r.out), 2) << r.out;  // header + our one job
  EXPECT_NE(r.out.find("succeeded"), std::string::npos) << r.out;

  r = cli({"--json", "jobs", "--state", "succeeded", "--kind", "idle", "--limit", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto list = nlohmann::json::parse(r.out);
  EXPECT_EQ(list["jobs"].size(), 1u);
  EXPECT_GE(list["total"].get<int>(), 1);
  EXPECT_EQ(list["limit"], 1);

  r = cli({"results", std::to_string(id)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GE(line_count(r.out), 4) << r.out;  // header + 3 points (+ summary)

  temp_dir tmp;
  r = cli({"results", std::to_string(id), "--format", "csv", "-o", tmp.file("r.csv")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(line_count(read_file(tmp.file("r.csv"))), 4) << read_file(tmp.file("r.csv"));
  // `-o -` is stdout, as for curl and tar: no file named "-" (issue 59).
  r = cli({"results", std::to_string(id), "--format", "csv", "-o", "-"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(line_count(r.out), 4) << r.out;
  EXPECT_FALSE(std::ifstream("-").good()) << "a file named '-' was written";

  r = cli({"results", std::to_string(id), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto results = nlohmann::json::parse(r.out);
  EXPECT_EQ(results["rows"].size(), 3u);
  EXPECT_EQ(results["job"]["id"], id);

  // Watching a finished job returns at once with its outcome.
  r = cli({"watch", std::to_string(id)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, job + ": succeeded\n");
}

TEST_F(client_backbone, cancel_and_watch_a_cancelled_job) {
  auto r = cli({"submit", "idle", "--duration", "30"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto id = std::to_string(id_in(r.out));
  r = cli({"cancel", id});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "job " + id + ": cancelled\n");
  r = cli({"cancel", id});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  r = cli({"watch", id});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out.rfind("job " + id + ": cancelled", 0), 0u) << r.out;
}

TEST_F(client_backbone, watch_follows_a_running_job_to_the_end) {
  auto r = cli({"submit", "idle", "--duration", "0.3", "--repeats", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto id = std::to_string(id_in(r.out));
  r = cli({"watch", id});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("job " + id + ": 2/2 points"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("job " + id + ": succeeded\n"), std::string::npos) << r.out;
}

// Ctrl-C on `watch` stops the watching, not the job: the client says so, and how to cancel it,
// and exits 130 (128 + SIGINT) while the job runs on.
TEST_F(client_backbone, ctrl_c_on_watch_says_the_job_keeps_running_and_how_to_cancel_it) {
  auto r = cli({"submit", "idle", "--duration", "30"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto id = std::to_string(id_in(r.out));
  std::vector<std::string> argv{client_path()};
  for (auto& a : with_daemon(*daemon_, {"watch", id})) argv.push_back(a);
  r = run_program(argv, {}, 60, {}, "job " + id + ": running");
  EXPECT_EQ(r.exit_code, 130) << r.out << r.err;
  EXPECT_EQ(r.err, "stopped watching; job " + id + " keeps running on the daemon (cancel it: jetperf cancel " + id + ")\n");
  r = cli({"--json", "show", id});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["state"], "running") << r.out;
  r = cli({"cancel", id});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(client_backbone, dry_run_spec_file_and_set) {
  auto r = cli({"submit", "idle", "--duration", "2", "--repeats", "4", "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("4 points, estimate 8s"), std::string::npos) << r.out;

  temp_dir tmp;
  write_file(tmp.file("spec.json"), R"({"duration_s": 0.05, "repeats": 5})");
  r = cli({"--json", "submit", "idle", "--spec", tmp.file("spec.json"), "--set", "repeats=2", "--tag", "from-file"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto job = nlohmann::json::parse(r.out);
  EXPECT_EQ(job["spec"]["repeats"], 2);
  EXPECT_DOUBLE_EQ(job["spec"]["duration_s"].get<double>(), 0.05);
  EXPECT_EQ(job["tags"], nlohmann::json::array({"from-file"}));

  // A whole request as the spec file, with the kind taken from it.
  write_file(tmp.file("req.json"), R"({"kind": "idle", "spec": {"duration_s": 0.01}, "tags": ["req"]})");
  r = cli({"--json", "submit", "--spec", tmp.file("req.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  job = nlohmann::json::parse(r.out);
  EXPECT_EQ(job["kind"], "idle");
  EXPECT_EQ(job["tags"], nlohmann::json::array({"req"}));
}

TEST_F(client_backbone, server_errors_are_one_line_with_exit_1) {
  auto r = cli({"submit", "idle", "--set", "duration_s=-1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("(field: spec.duration_s)"), std::string::npos) << r.err;
  r = cli({"submit", "no_such_kind"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  r = cli({"show", "999999"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
}

TEST_F(client_backbone, auth_failures_exit_1) {
  // No token at all (and no system token file for a non-default token dir).
  auto r = run_client({"--host", daemon_->address(), "submit", "idle"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  // Says how to give this client the token, not only which HTTP header was missing (issue 59).
  EXPECT_NE(r.err.find("--token, $JETPERF_TOKEN"), std::string::npos) << r.err;
  r = run_client({"--host", daemon_->address(), "--token", "wrong", "cancel", "1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
}

TEST_F(client_backbone, usage_errors_exit_2) {
  auto r = cli({"show"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  r = cli({"results", "1", "--format", "xml"});
  EXPECT_EQ(r.exit_code, 2);
  r = cli({"submit"});
  EXPECT_EQ(r.exit_code, 2);
  r = cli({"submit", "idle", "--spec", "/nonexistent/spec.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/spec.json"), std::string::npos) << r.err;
  r = run_client({"--host", "127.0.0.1:99999", "health"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = cli({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("submit"), std::string::npos);
  // Issue 59: a job id that is no number printed a 309-digit range; an unknown command said
  // "A subcommand is required".
  r = cli({"results", "abc"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: id: a job id is a whole number from 1, got 'abc' (see jetperf --help)\n");
  r = cli({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("error: unknown command 'frobnicate'; the commands: health, jobs, submit,", 0), 0u) << r.err;
}

TEST_F(client_backbone, cannot_connect_exits_3) {
  const auto r = run_client({"--host", "127.0.0.1:1", "health"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err.rfind("error: cannot connect to 127.0.0.1:1: ", 0), 0u) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
}

TEST_F(client_backbone, host_and_token_from_environment_and_config) {
  auto r = run_client({"--json", "submit", "idle", "--duration", "0.01"},
                      {{"JETPERF_HOST", "http://" + daemon_->address() + "/"}, {"JETPERF_TOKEN", daemon_->token()}});
  EXPECT_EQ(r.exit_code, 0) << r.err;

  temp_dir cfg;
  write_file(cfg.file("jetperf/config"),
             "# test config\nhost = " + daemon_->address() + "\ntoken_file = " + daemon_->dir() + "/token\n");
  r = run_client({"submit", "idle", "--duration", "0.01"}, {{"XDG_CONFIG_HOME", cfg.path()}});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("submitted job"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace jetperf::test
