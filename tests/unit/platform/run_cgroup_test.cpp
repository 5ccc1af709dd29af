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
#include <iterator>
#include <string>

#include <jetperf/platform/run_cgroup.hpp>
#include <jetperf/platform/run_watchdog.hpp>
#include <jetperf/platform/user_process.hpp>

#include <support/eventually.hpp>
#include <support/temp_dir.hpp>

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


std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void put_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// A run's limits go into its cgroup's files and its events come back out of them. The cgroup
// v2 files as a kernel with the pids and memory controllers delegated shows them (this host's
// hierarchy has neither: its runs fall back to rlimits, user_process_test).
TEST(run_cgroup, a_runs_limits_are_its_cgroups_files_and_its_events_come_back) {
  test::temp_dir tmp;
  const std::string run = tmp.path() + "/run-7";
  ASSERT_EQ(::mkdir(run.c_str(), 0755), 0);
  for (const char* f : {"cgroup.procs", "pids.max", "memory.max", "memory.swap.max"}) put_file(run + "/" + f, "");
  {
    run_cgroup cg(tmp.path(), "run-7");
    const auto taken = cg.limit({64, 512ull << 20});
    EXPECT_TRUE(taken.processes);
    EXPECT_TRUE(taken.memory);
    EXPECT_EQ(file_text(run + "/pids.max"), "64");
    EXPECT_EQ(file_text(run + "/memory.max"), "536870912");
    EXPECT_EQ(file_text(run + "/memory.swap.max"), "0");
    EXPECT_EQ(cg.events().oom_kills, 0u);
    put_file(run + "/memory.events", "low 0\nhigh 0\nmax 5\noom 2\noom_kill 2\noom_group_kill 0\n");
    put_file(run + "/pids.events", "max 9\n");
    EXPECT_EQ(cg.events().oom_kills, 2u);
    EXPECT_EQ(cg.events().pids_refused, 9u);
  }
  // Without the controllers' files the limits are not taken (the caller falls back to rlimits).
  test::temp_dir bare;
  ASSERT_EQ(::mkdir((bare.path() + "/run-8").c_str(), 0755), 0);
  put_file(bare.path() + "/run-8/cgroup.procs", "");
  run_cgroup cg(bare.path(), "run-8");
  const auto taken = cg.limit({64, 512ull << 20});
  EXPECT_FALSE(taken.processes);
  EXPECT_FALSE(taken.memory);
}

// The controllers are handed down to the runs where the parent has them; where it has not, the
// reason names each one.
TEST(run_cgroup, the_limit_controllers_are_enabled_for_runs_or_the_reason_names_what_is_missing) {
  test::temp_dir tmp;
  put_file(tmp.path() + "/cgroup.controllers", "cpu io memory\n");
  put_file(tmp.path() + "/cgroup.subtree_control", "");
  const auto why = enable_run_limit_controllers(tmp.path());
  EXPECT_NE(why.find("the pids controller is not available in " + tmp.path()), std::string::npos) << why;
  EXPECT_EQ(why.find("memory"), std::string::npos) << why;
  EXPECT_EQ(file_text(tmp.path() + "/cgroup.subtree_control"), "+memory");
  put_file(tmp.path() + "/cgroup.subtree_control", "memory pids\n");
  EXPECT_EQ(enable_run_limit_controllers(tmp.path()), "");
}

// A daemon's own group of runs went on existing, empty, after a clean stop; a unit's own cgroup
// (systemd's to remove) is left alone.
TEST(run_cgroup, a_daemons_own_group_of_runs_is_removed_at_its_stop_and_a_units_is_not) {
  std::string why;
  const auto parent = find_run_cgroup_parent(&why);
  ASSERT_TRUE(parent) << "this host offers no writable cgroup v2 hierarchy: " << why;
  { run_cgroup leftover(*parent, "run-5"); }
  struct stat st {};
  ASSERT_EQ(::stat(parent->c_str(), &st), 0);
  remove_run_cgroup_parent(*parent);
  EXPECT_NE(::stat(parent->c_str(), &st), 0) << *parent << " is left behind";
  test::temp_dir tmp;
  const std::string unit = tmp.path() + "/jetperfd.service";
  ASSERT_EQ(::mkdir(unit.c_str(), 0755), 0);
  remove_run_cgroup_parent(unit);
  EXPECT_EQ(::stat(unit.c_str(), &st), 0);
}

// Outside systemd, a daemon killed with kill -9 left what its runs started running until its
// next start. A stand-in daemon (a child of the test) starts the watchdog and a run whose
// program left its session; the stand-in is killed, and the watchdog kills the run.
TEST(run_watchdog, a_killed_daemons_runs_die_with_it) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t daemon = ::fork();
  ASSERT_GE(daemon, 0);
  if (daemon == 0) {
    ::close(fds[0]);
    std::string why;
    const auto parent = find_run_cgroup_parent(&why);
    if (!parent || start_run_watchdog(*parent, &why) <= 0) ::_exit(2);
    run_cgroup cg(*parent, "run-1");
    const pid_t program = ::fork();
    if (program == 0) {
      if (::write(cg.procs_fd(), "0", 1) != 1) ::_exit(3);
      // As a run's child closes every descriptor but its own before execve (the watchdog's pipe
      // among them, which this stand-in would otherwise hold open).
      for (int fd = 3; fd < 1024; ++fd)
        if (fd != fds[1]) ::close(fd);
      const pid_t escaped = ::fork();
      if (escaped == 0) {
        ::setsid();  // out of its group and session: only the cgroup holds it
        for (;;) ::pause();
      }
      ssize_t ignored = ::write(fds[1], &escaped, sizeof escaped);
      (void)ignored;
      for (;;) ::pause();
    }
    for (;;) ::pause();
  }
  ::close(fds[1]);
  pid_t escaped = -1;
  ASSERT_EQ(::read(fds[0], &escaped, sizeof escaped), static_cast<ssize_t>(sizeof escaped));
  ::close(fds[0]);
  ASSERT_GT(escaped, 0);
  EXPECT_FALSE(gone(escaped));
  ::kill(daemon, SIGKILL);
  ::waitpid(daemon, nullptr, 0);
  EXPECT_TRUE(eventually([&] { return gone(escaped); }, std::chrono::seconds(5))) << "process " << escaped << " outlived its daemon";
  if (!gone(escaped)) ::kill(escaped, SIGKILL);
}

// A daemon in its runs' parent (its systemd unit's cgroup) moves into a leaf of its own, so that
// the parent holds no process and may hand the memory controller down to its runs. A child of
// the test stands in: it joins the parent, leaves it, and says where it is.
TEST(run_cgroup, a_daemon_in_its_runs_parent_moves_into_a_leaf_of_its_own) {
  std::string why;
  const auto parent = find_run_cgroup_parent(&why);
  ASSERT_TRUE(parent) << "this host offers no writable cgroup v2 hierarchy: " << why;
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(fds[0]);
    std::ofstream(*parent + "/cgroup.procs") << "0";
    const auto left = leave_run_parent(*parent);
    const auto result = left + "|" + file_text("/proc/self/cgroup");  // read after the move
    ssize_t ignored = ::write(fds[1], result.data(), result.size());
    (void)ignored;
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string got;
  char buf[512];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  ::waitpid(child, nullptr, 0);
  EXPECT_EQ(got.substr(0, got.find('|')), "") << got;
  const auto relative = parent->substr(parent->find("/jetperf.slice/"));
  EXPECT_NE(got.find("0::" + relative + "/daemon\n"), std::string::npos) << got;
  // Not in the parent: nothing to do.
  EXPECT_EQ(leave_run_parent(*parent), "");
  ::rmdir((*parent + "/daemon").c_str());
}

}  // namespace
}  // namespace jetperf::platform
