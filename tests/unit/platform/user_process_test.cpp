// A researcher's program run the way command jobs run it: execve with exactly the environment
// given, its own process group killed on timeout and cancel (with what it left behind), bounded
// output tails, and an unprivileged account when the daemon is root.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <grp.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/user_account.hpp>
#include <jetperf/platform/run_leftovers.hpp>
#include <jetperf/platform/user_process.hpp>

#include <support/eventually.hpp>
#include <support/temp_dir.hpp>

using namespace jetperf;
using namespace jetperf::platform;

namespace {

user_process_spec spec_of(std::vector<std::string> argv) {
  user_process_spec s;
  s.program = argv.at(0);
  s.argv = std::move(argv);
  s.timeout_s = 20;
  return s;
}

bool alive(int pid) { return ::kill(pid, 0) == 0; }

// The hard limits of data size and processes, one per line, from a /proc/<pid>/limits.
constexpr const char* k_limits_awk = "/Max data size|Max processes/ { print $(NF - 1) }";

}  // namespace

TEST(user_process, reports_exit_status_and_keeps_both_output_tails) {
  auto s = spec_of({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
  const auto r = run_user_process(s, {});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.term_signal, 0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.out_tail, "out\n");
  EXPECT_EQ(r.err_tail, "err\n");
  EXPECT_GT(r.t_end_ns, r.t_start_ns);
}

TEST(user_process, keeps_only_the_last_bytes_of_a_long_output_and_counts_all) {
  auto s = spec_of({"/bin/sh", "-c", "i=0; while [ $i -lt 5000 ]; do echo line$i; i=$((i+1)); done"});
  s.tail_bytes = 64;
  const auto r = run_user_process(s, {});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out_tail.size(), 64u);
  EXPECT_NE(r.out_tail.find("line4999\n"), std::string::npos);
  EXPECT_EQ(r.out_tail.substr(r.out_tail.size() - 9), "line4999\n");
  EXPECT_GT(r.out_bytes, 40000u);
}

TEST(user_process, passes_exactly_the_environment_given_and_starts_in_cwd) {
  test::temp_dir dir;
  auto s = spec_of({"/bin/sh", "-c", "env; pwd"});
  s.env = {"ONLY=this", "PATH=/usr/bin:/bin"};
  s.cwd = dir.path();
  ::setenv("JETPERF_TEST_SECRET", "daemon-only", 1);
  const auto r = run_user_process(s, {});
  ::unsetenv("JETPERF_TEST_SECRET");
  EXPECT_NE(r.out_tail.find("ONLY=this\n"), std::string::npos) << r.out_tail;
  EXPECT_EQ(r.out_tail.find("JETPERF_TEST_SECRET"), std::string::npos) << r.out_tail;
  EXPECT_NE(r.out_tail.find(dir.path() + "\n"), std::string::npos) << r.out_tail;
}

TEST(user_process, a_timeout_kills_the_whole_group_including_what_the_program_left_behind) {
  test::temp_dir dir;
  const auto pid_file = dir.file("child.pid");
  auto s = spec_of({"/bin/sh", "-c", "sleep 300 & echo $! > " + pid_file + "; wait"});
  s.timeout_s = 0.5;
  s.kill_grace_s = 0.5;
  const auto r = run_user_process(s, {});
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_EQ(r.term_signal, SIGTERM);
  EXPECT_LT(static_cast<double>(r.t_end_ns - r.t_start_ns) * 1e-9, 5.0);
  int child = 0;
  std::ifstream(pid_file) >> child;
  ASSERT_GT(child, 0);
  EXPECT_TRUE(test::eventually([&] { return !alive(child); }, std::chrono::seconds(5))) << "sleep " << child << " survived";
}

// Issue 35, 3: a program whose child calls setsid() leaves the process group, and the group
// kill missed it: it outlived its job. Its orphan comes to this process (the subreaper) and is
// killed and reaped when the run ends, as is a double-forked one.
TEST(user_process, what_left_the_process_group_is_killed_when_the_run_ends) {
  ASSERT_TRUE(become_subreaper()) << "this kernel refuses PR_SET_CHILD_SUBREAPER (qemu-user 7.2 does)";
  test::temp_dir dir;
  const auto setsid_pid = dir.file("setsid.pid"), daemonized_pid = dir.file("daemonized.pid");
  auto s = spec_of({"/bin/sh", "-c",
                    "setsid sh -c 'echo $$ > " + setsid_pid + "; exec sleep 300' & "
                    "(sh -c 'echo $$ > " + daemonized_pid + "; exec sleep 300' &) ; "
                    "while [ ! -s " + setsid_pid + " ] || [ ! -s " + daemonized_pid + " ]; do sleep 0.01; done; exit 0"});
  const auto r = run_user_process(s, {});
  EXPECT_EQ(r.exit_code, 0);
  int escaped = 0, daemonized = 0;
  std::ifstream(setsid_pid) >> escaped;
  std::ifstream(daemonized_pid) >> daemonized;
  ASSERT_GT(escaped, 0);
  ASSERT_GT(daemonized, 0);
  // Gone and reaped when the call returns: no process, not even a zombie, under either pid.
  EXPECT_FALSE(alive(escaped)) << "the setsid child " << escaped << " outlived its run";
  EXPECT_FALSE(alive(daemonized)) << "the double-forked child " << daemonized << " outlived its run";
  EXPECT_GE(r.leftovers, 2u);
}

// The sweep takes only what the run left: a child the daemon itself starts during the run (a
// tool such as nvpmodel, in the daemon's own process group) is not killed.
TEST(user_process, the_daemons_own_children_started_during_a_run_are_left_alone) {
  pid_t own = 0;
  auto s = spec_of({"/bin/sh", "-c", "sleep 0.2"});
  const auto r = run_user_process(s, {}, [&own](int) {
    own = ::fork();
    if (own == 0) {
      ::execl("/bin/sleep", "sleep", "30", static_cast<char*>(nullptr));
      ::_exit(127);
    }
  });
  ASSERT_GT(own, 0);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(alive(own)) << "the daemon's own child was killed with the run's leftovers";
  ::kill(own, SIGKILL);
  ::waitpid(own, nullptr, 0);
}

TEST(user_process, a_program_that_ignores_sigterm_is_killed_after_the_grace_period) {
  auto s = spec_of({"/bin/sh", "-c", "trap '' TERM; while :; do sleep 0.05; done"});
  s.timeout_s = 0.3;
  s.kill_grace_s = 0.3;
  const auto r = run_user_process(s, {});
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.term_signal, SIGKILL);
}

TEST(user_process, cancel_ends_the_run_and_says_so) {
  std::atomic<bool> cancel{false};
  auto s = spec_of({"/bin/sleep", "300"});
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  int started = 0;
  const auto r = run_user_process(s, [&] { return cancel.load(); }, [&](int pid) { started = pid; });
  t.join();
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(started, r.pid);
  EXPECT_EQ(r.term_signal, SIGTERM);
}

TEST(user_process, a_program_that_cannot_start_is_an_error_naming_it) {
  auto s = spec_of({"/nonexistent/program"});
  try {
    run_user_process(s, {});
    FAIL() << "started";
  } catch (const platform_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/program"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("execve"), std::string::npos) << e.what();
  }
  auto relative = spec_of({"sleep", "1"});
  EXPECT_THROW(run_user_process(relative, {}), platform_error);
}

TEST(user_process, runs_as_the_unprivileged_account_when_root_and_is_refused_the_switch_otherwise) {
  const auto nobody = lookup_unprivileged_account("nobody");
  auto s = spec_of({"/usr/bin/id", "-u"});
  s.run_as = nobody;
  if (::geteuid() == 0) {
    const auto r = run_user_process(s, {});
    EXPECT_EQ(r.out_tail, std::to_string(nobody.uid) + "\n");
  } else {
    EXPECT_THROW(run_user_process(s, {}), platform_error);
  }
}

// An account in root's group ran its programs with group root (accepted as command_user).
TEST(user_account, an_account_in_roots_group_is_refused) {
  const user_account primary{"ops", 1001, 0, {0}, "/home/ops", "/bin/sh"};
  const user_account supplementary{"ops", 1001, 1001, {1001, 0}, "/home/ops", "/bin/sh"};
  for (const auto& a : {primary, supplementary}) {
    try {
      require_unprivileged(a);
      ADD_FAILURE() << "gid 0 accepted";
    } catch (const platform_error& e) {
      EXPECT_NE(std::string(e.what()).find("group root"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(require_unprivileged(lookup_unprivileged_account("nobody")));
}

// An account in the docker group was accepted as command_user (root in all but name). The
// groups are this machine's own (Debian's base system has each of these).
TEST(user_account, an_account_in_a_group_that_grants_roots_powers_is_refused_naming_it) {
  for (const char* name : {"sudo", "disk", "adm", "shadow"}) {
    const group* g = ::getgrnam(name);
    ASSERT_NE(g, nullptr) << "no group " << name << " on this machine";
    const gid_t gid = g->gr_gid;
    const user_account supplementary{"ops", 1001, 1001, {1001, gid}, "/home/ops", "/bin/sh"};
    const user_account primary{"ops", 1001, gid, {gid}, "/home/ops", "/bin/sh"};
    for (const auto& a : {supplementary, primary}) {
      try {
        require_unprivileged(a);
        ADD_FAILURE() << name << " accepted";
      } catch (const platform_error& e) {
        EXPECT_NE(std::string(e.what()).find("group '" + std::string(name) + "'"), std::string::npos) << e.what();
      }
    }
  }
  // The GPU's device nodes' group is a Jetson user's ordinary one.
  const group* video = ::getgrnam("video");
  ASSERT_NE(video, nullptr);
  EXPECT_NO_THROW(require_unprivileged(user_account{"ops", 1001, 1001, {1001, video->gr_gid}, "/home/ops", "/bin/sh"}));
}

// The parent-death signal was set before the switch to the account, which clears it: a program
// outlived a kill -9 of the daemon. A stand-in daemon (a child of the test) starts a program,
// is killed with SIGKILL, and the program dies with it.
TEST(user_process, a_program_dies_with_a_killed_daemon_after_switching_account) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t daemon = ::fork();
  ASSERT_GE(daemon, 0);
  if (daemon == 0) {
    ::close(fds[0]);
    auto s = spec_of({"/bin/sleep", "60"});
    if (::geteuid() == 0) s.run_as = lookup_unprivileged_account("nobody");
    try {
      run_user_process(s, {}, [&](int pid) {
        ssize_t ignored = ::write(fds[1], &pid, sizeof pid);
        (void)ignored;
      });
    } catch (...) {
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  int program = 0;
  ASSERT_EQ(::read(fds[0], &program, sizeof program), static_cast<ssize_t>(sizeof program));
  ::close(fds[0]);
  ASSERT_GT(program, 0);
  ASSERT_TRUE(alive(program));
  ::kill(daemon, SIGKILL);
  ::waitpid(daemon, nullptr, 0);
  EXPECT_TRUE(jetperf::test::eventually([&] { return !alive(program); }, std::chrono::seconds(5)))
      << "program " << program << " outlived its daemon";
  if (alive(program)) ::kill(program, SIGKILL);
}

TEST(user_account, root_is_refused_by_name_and_by_number) {
  for (const char* name : {"root", "0"}) {
    try {
      lookup_unprivileged_account(name);
      FAIL() << name << " accepted";
    } catch (const platform_error& e) {
      EXPECT_NE(std::string(e.what()).find("root"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(lookup_unprivileged_account("no-such-account-here"), platform_error);
  EXPECT_THROW(lookup_unprivileged_account(""), platform_error);
  EXPECT_NE(lookup_unprivileged_account("nobody").uid, 0u);
}

// A daemon started from a shell ran programs with NoNewPrivs 0: a set-user-ID program they ran
// gained its owner's privileges. The child sets it before execve, whoever starts the daemon.
TEST(user_process, a_program_runs_with_no_new_privileges) {
  auto s = spec_of({"/bin/grep", "NoNewPrivs", "/proc/self/status"});
  if (::geteuid() == 0) s.run_as = lookup_unprivileged_account("nobody");
  const auto r = run_user_process(s, {});
  EXPECT_EQ(r.exit_code, 0) << r.err_tail;
  EXPECT_EQ(r.out_tail, "NoNewPrivs:\t1\n");
}

// Without a cgroup to hold them (no cgroup v2, the controllers not delegated) a run's limits are
// its rlimits, as the program's /proc/self/limits shows them (data bytes, then processes).
TEST(user_process, limits_without_a_cgroup_are_the_programs_rlimits) {
  auto s = spec_of({"/usr/bin/awk", k_limits_awk, "/proc/self/limits"});
  if (::geteuid() == 0) s.run_as = lookup_unprivileged_account("nobody");
  s.limits.max_processes = 77;
  s.limits.max_memory_bytes = 300ull << 20;
  const auto r = run_user_process(s, {});
  EXPECT_EQ(r.exit_code, 0) << r.err_tail;
  EXPECT_EQ(r.out_tail, "314572800\n77\n");
  EXPECT_EQ(r.processes_limited_by, "rlimit");
  EXPECT_EQ(r.memory_limited_by, "rlimit");
  // None set: none applied, and none said.
  auto free = spec_of({"/usr/bin/awk", k_limits_awk, "/proc/self/limits"});
  const auto unlimited = run_user_process(free, {});
  EXPECT_EQ(unlimited.out_tail.substr(0, 10), "unlimited\n");
  EXPECT_EQ(unlimited.processes_limited_by, "");
  EXPECT_EQ(unlimited.memory_limited_by, "");
}

// A program past its data limit fails its own allocation: the limit holds, not just reads back.
TEST(user_process, a_program_past_its_memory_limit_cannot_allocate_it) {
  auto s = spec_of({"/usr/bin/python3", "-c", "b = bytearray(200 * 1024 * 1024)"});
  if (::geteuid() == 0) s.run_as = lookup_unprivileged_account("nobody");
  s.limits.max_memory_bytes = 100ull << 20;
  const auto r = run_user_process(s, {});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err_tail.find("MemoryError"), std::string::npos) << r.err_tail;
  s.limits.max_memory_bytes = 400ull << 20;
  EXPECT_EQ(run_user_process(s, {}).exit_code, 0);
}

