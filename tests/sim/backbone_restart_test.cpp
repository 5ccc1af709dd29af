// Durability across daemon restarts: queued jobs survive SIGTERM, finished results persist, and a
// job running during SIGKILL comes back as `interrupted`.
#include "backbone_helpers.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <fstream>

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

TEST(restart_backbone, a_daemon_ends_with_the_test_process_that_started_it) {
  // A test killed by ctest's timeout, or a benchmark ended by an uncaught exception, runs no
  // destructor: its daemon must not go on sampling a simulated board beside every test after it.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t test = ::fork();
  ASSERT_GE(test, 0);
  if (test == 0) {
    ::close(fds[0]);
    pid_t daemon_pid = -1;
    try {
      auto* d = new daemon_process();  // never deleted: the process ends as if it crashed
      daemon_pid = d->pid();
    } catch (...) {
    }
    (void)!::write(fds[1], &daemon_pid, sizeof daemon_pid);
    ::_exit(0);
  }
  ::close(fds[1]);
  pid_t daemon_pid = -1;
  ASSERT_EQ(::read(fds[0], &daemon_pid, sizeof daemon_pid), static_cast<ssize_t>(sizeof daemon_pid));
  ::close(fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(test, &status, 0), test);
  ASSERT_GT(daemon_pid, 0) << "the forked test could not start its daemon";
  // Gone, or a zombie its new parent has yet to reap.
  const auto running = [&] {
    std::ifstream stat("/proc/" + std::to_string(daemon_pid) + "/stat");
    std::string pid, comm, state;
    return stat >> pid >> comm >> state && state != "Z" && state != "X";
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (running() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(running()) << "jetperfd " << daemon_pid << " outlived the process that started it";
  if (running()) ::kill(daemon_pid, SIGKILL);
}

}  // namespace
}  // namespace jetperf::test
