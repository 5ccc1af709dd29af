// Durability across daemon restarts: queued jobs survive SIGTERM, finished results persist, and a
// job running during SIGKILL comes back as `interrupted`.
#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

TEST(restart_backbone, sigterm_keeps_queued_jobs_and_finished_results) {
  daemon_process daemon;
  std::string results_before;
  std::int64_t finished = 0, running = 0;
  std::vector<std::int64_t> queued;
  {
    http_client http(daemon.port());
    finished = submit_idle(http, daemon.token(), 0.01, 3, {"keep"});
    ASSERT_EQ(wait_state(http, finished, {"succeeded", "failed"}), "succeeded")
        << http.request("GET", "/v1/jobs/" + std::to_string(finished)).body << "\n"
        << http.request("GET", "/v1/jobs/" + std::to_string(finished) + "/results?format=csv").body << "\n"
        << daemon.log();
    results_before = http.request("GET", "/v1/jobs/" + std::to_string(finished) + "/results?format=csv").body;
    ASSERT_EQ(line_count(results_before), 4) << results_before;

    running = submit_idle(http, daemon.token(), 30, 1);
    for (int i = 0; i < 3; ++i) queued.push_back(submit_idle(http, daemon.token(), 0.05, 1, {"later"}));
    ASSERT_EQ(wait_state(http, running, {"running"}), "running")
        << http.request("GET", "/v1/jobs/" + std::to_string(running)).body << "\n"
        << http.request("GET", "/v1/jobs/" + std::to_string(running) + "/results?format=csv").body << "\n"
        << daemon.log();
    for (auto id : queued) EXPECT_EQ(state_of(http, id), "queued");
  }
  EXPECT_EQ(daemon.stop(), 0) << daemon.log();
  daemon.start();

  http_client http(daemon.port());
  const auto was_running = state_of(http, running);
  EXPECT_TRUE(was_running == "interrupted" || was_running == "queued") << was_running;
  if (was_running == "queued") {
    auto r = http.request("DELETE", "/v1/jobs/" + std::to_string(running), {}, bearer(daemon.token()));
    EXPECT_EQ(r.status, 200) << r.body;
  }
  for (auto id : queued)
    EXPECT_EQ(wait_state(http, id, {"succeeded", "partial", "failed", "cancelled"}), "succeeded")
        << http.request("GET", "/v1/jobs/" + std::to_string(id)).body << "\n"
        << http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results?format=csv").body << "\n"
        << daemon.log();
  EXPECT_EQ(state_of(http, finished), "succeeded");
  EXPECT_EQ(http.request("GET", "/v1/jobs/" + std::to_string(finished) + "/results?format=csv").body, results_before)
      << daemon.log();
  const auto list = json_of(http.request("GET", "/v1/jobs?tag=later"));
  EXPECT_EQ(list["total"], 3) << list.dump();
}

TEST(restart_backbone, job_running_during_sigkill_is_interrupted) {
  daemon_process daemon;
  std::int64_t id = 0, after = 0;
  {
    http_client http(daemon.port());
    id = submit_idle(http, daemon.token(), 30, 2);
    after = submit_idle(http, daemon.token(), 0.01, 1);
    ASSERT_EQ(wait_state(http, id, {"running"}), "running");
  }
  daemon.kill();
  daemon.start();
  http_client http(daemon.port());
  EXPECT_EQ(state_of(http, id), "interrupted");
  EXPECT_EQ(wait_state(http, after, {"succeeded", "failed"}), "succeeded");
  // The client reports the interrupted job as not succeeded.
  const auto r = run_client(with_daemon(daemon, {"watch", std::to_string(id)}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out.rfind("job " + std::to_string(id) + ": interrupted", 0), 0u) << r.out;
}

}  // namespace
}  // namespace jetperf::test
