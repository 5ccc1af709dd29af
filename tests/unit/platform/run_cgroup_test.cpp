// A command run's cgroup: where it goes (systemd's delegated unit, else jetperf.slice), and on
// this host's real cgroup v2 hierarchy (the tests run as root, CI's chroot binds /sys): a process
// that left its session (setsid) dies with the cgroup, a run's program is in it, and nothing of
// the cgroup is left after the run.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include <jetperf/platform/run_cgroup.hpp>
#include <jetperf/platform/user_process.hpp>

#include <support/eventually.hpp>

namespace jetperf::platform {
namespace {

using test::eventually;

const std::string k_mountinfo =
    "25 31 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
    "30 25 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate\n";

TEST(run_cgroup, a_daemon_under_systemd_makes_runs_in_its_units_delegated_cgroup) {
  std::string why;
  const auto parent = run_cgroup_parent_of(k_mountinfo, "0::/system.slice/jetperfd.service\n", &why);
  ASSERT_TRUE(parent) << why;
  EXPECT_EQ(*parent, "/sys/fs/cgroup/system.slice/jetperfd.service");
}

TEST(run_cgroup, elsewhere_runs_go_to_a_group_of_the_daemons_own_in_jetperf_slice) {
  std::string why;
  const auto pid = std::to_string(::getpid());
  EXPECT_EQ(run_cgroup_parent_of(k_mountinfo, "0::/\n", &why).value_or(why), "/sys/fs/cgroup/jetperf.slice/jetperfd-" + pid);
  EXPECT_EQ(run_cgroup_parent_of(k_mountinfo, "0::/user.slice/user-1000.slice/session-3.scope\n", &why).value_or(why),
            "/sys/fs/cgroup/jetperf.slice/jetperfd-" + pid);
  // A hybrid host: cgroup v2 at .../unified beside the v1 controllers.
  const std::string hybrid =
      "31 25 0:27 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw\n"
      "32 25 0:28 / /sys/fs/cgroup/cpu rw,nosuid - cgroup cgroup rw,cpu\n";
  EXPECT_EQ(run_cgroup_parent_of(hybrid, "4:cpu:/\n0::/\n", &why).value_or(why),
            "/sys/fs/cgroup/unified/jetperf.slice/jetperfd-" + pid);
}

TEST(run_cgroup, without_cgroup_v2_there_is_no_parent_and_the_reason_says_why) {
  std::string why;
  EXPECT_FALSE(run_cgroup_parent_of("32 25 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n", "4:cpu:/\n", &why));
  EXPECT_NE(why.find("no cgroup v2"), std::string::npos) << why;
  EXPECT_FALSE(run_cgroup_parent_of(k_mountinfo, "4:cpu:/\n", &why));
  EXPECT_NE(why.find("0::"), std::string::npos) << why;
}

bool gone(pid_t pid) {
  if (::kill(pid, 0) != 0) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const auto close = line.rfind(')');
  return close != std::string::npos && line.size() > close + 2 && line[close + 2] == 'Z';
}

TEST(run_cgroup, a_process_that_left_its_session_dies_with_the_cgroup_which_is_then_removed) {
  std::string why;
  const auto parent = find_run_cgroup_parent(&why);
  ASSERT_TRUE(parent) << "this host offers no writable cgroup v2 hierarchy: " << why;
  int pids[2];
  ASSERT_EQ(::pipe(pids), 0);
  std::string path;
  pid_t child = -1, escaped = -1;
  {
    run_cgroup cg(*parent, "run-test");
    path = cg.path();
    child = ::fork();
    if (child == 0) {
      if (::write(cg.procs_fd(), "0", 1) != 1) ::_exit(3);
      const pid_t g = ::fork();
      if (g == 0) {
        ::setsid();  // out of the group and the session: only the cgroup still holds it
        for (;;) ::pause();
      }
      ssize_t ignored = ::write(pids[1], &g, sizeof g);
      (void)ignored;
      for (;;) ::pause();
    }
    ASSERT_EQ(::read(pids[0], &escaped, sizeof escaped), static_cast<ssize_t>(sizeof escaped));
    EXPECT_FALSE(gone(escaped));
    EXPECT_EQ(cg.kill(), 2u);
    int st = 0;
    ASSERT_EQ(::waitpid(child, &st, 0), child);
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    EXPECT_TRUE(eventually([&] { return gone(escaped); })) << "the process that called setsid() still runs";
  }
  ::close(pids[0]);
  ::close(pids[1]);
  struct stat st {};
  EXPECT_NE(::stat(path.c_str(), &st), 0) << path << " is left behind";
}

TEST(run_cgroup, a_runs_program_is_in_the_runs_cgroup_and_the_cgroup_goes_with_the_run) {
  std::string why;
  const auto parent = find_run_cgroup_parent(&why);
  ASSERT_TRUE(parent) << "this host offers no writable cgroup v2 hierarchy: " << why;
  user_process_spec s;
  s.program = "/bin/cat";
  s.argv = {"/bin/cat", "/proc/self/cgroup"};
  s.timeout_s = 20;
  s.cgroup_parent = *parent;
  s.cgroup_name = "run-42";
  const auto r = run_user_process(s, {});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out_tail.find("/jetperfd-" + std::to_string(::getpid()) + "/run-42\n"), std::string::npos) << r.out_tail;
  struct stat st {};
  EXPECT_NE(::stat((*parent + "/run-42").c_str(), &st), 0);
}

}  // namespace
}  // namespace jetperf::platform
