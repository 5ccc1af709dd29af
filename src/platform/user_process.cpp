#include <jetperf/platform/user_process.hpp>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/unique_handle.hpp>

#include <jetperf/platform/run_cgroup.hpp>
#include <jetperf/platform/run_leftovers.hpp>

#include "child_process.hpp"

namespace jetperf::platform {

namespace {

using detail::fill_status;
using detail::make_pipe;
using detail::unique_fd;

// What failed in the child before execve, sent back through the status pipe.
struct child_failure {
  int step = 0;  ///< index into k_steps
  int error = 0;
};
const char* const k_steps[] = {"setpgid", "open /dev/null", "dup2", "chdir", "setgroups", "setgid", "setuid",
                               "execve", "prctl(PR_SET_PDEATHSIG)", "joining its cgroup"};

[[noreturn]] void child_fail(int fd, int step) {
  child_failure f{step, errno};
  ssize_t ignored = ::write(fd, &f, sizeof f);
  (void)ignored;
  ::_exit(127);
}

// Between fork and execve: async-signal-safe calls only (the daemon has threads).
[[noreturn]] void run_child(const user_process_spec& spec, char* const* argv, char* const* envp, int out_fd,
                            int err_fd, int status_fd, const gid_t* groups, std::size_t group_count, pid_t daemon_pid,
                            int cgroup_fd) {
  // First, while still root: whatever it starts from here on is born in the run's cgroup.
  if (cgroup_fd >= 0 && ::write(cgroup_fd, "0", 1) != 1) child_fail(status_fd, 9);
  if (::setpgid(0, 0) != 0) child_fail(status_fd, 0);
  const int devnull = ::open("/dev/null", O_RDONLY);
  if (devnull < 0) child_fail(status_fd, 1);
  if (::dup2(devnull, 0) < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) child_fail(status_fd, 2);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int sig : {SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD}) ::signal(sig, SIG_DFL);
  if (spec.run_as) {
    if (::setgroups(group_count, groups) != 0) child_fail(status_fd, 4);
    if (::setgid(spec.run_as->gid) != 0) child_fail(status_fd, 5);
    if (::setuid(spec.run_as->uid) != 0) child_fail(status_fd, 6);
  }
  // Dies with the daemon even if the daemon is killed before it can kill the group. After the
  // switch: changing the credentials clears the parent-death signal. A daemon already gone by
  // now (the signal was not yet armed) is seen as a new parent.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) child_fail(status_fd, 8);
  if (::getppid() != daemon_pid) ::_exit(127);
  // After the switch, so that a directory the account cannot enter is refused as it would be.
  if (::chdir(spec.cwd.c_str()) != 0) child_fail(status_fd, 3);
  // Every other descriptor the daemon holds (database, sockets) is close-on-exec; those without
  // the flag (a library's) are closed here so that the program cannot reach them.
  struct rlimit lim {};
  const int max_fd = ::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < 65536 ? static_cast<int>(lim.rlim_cur) : 65536;
  for (int fd = 3; fd < max_fd; ++fd)
    if (fd != status_fd) ::close(fd);
  ::execve(spec.program.c_str(), argv, envp);
  child_fail(status_fd, 7);
}

// Keeps the last `limit` bytes written to it.
void append_tail(std::string& tail, const char* data, std::size_t n, std::size_t limit) {
  if (n >= limit) {
    tail.assign(data + (n - limit), limit);
    return;
  }
  tail.append(data, n);
  if (tail.size() > limit) tail.erase(0, tail.size() - limit);
}


}  // namespace

user_process_result run_user_process(const user_process_spec& spec, const std::function<bool()>& cancelled,
                                     const std::function<void(int pid)>& on_start) {
  if (spec.argv.empty()) throw platform_error("cannot start a program: empty argument vector");
  if (spec.program.empty() || spec.program.front() != '/')
    throw platform_error("cannot start '" + spec.program + "': not an absolute path");
  std::vector<char*> argv, envp;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : spec.env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  std::vector<gid_t> groups = spec.run_as ? spec.run_as->groups : std::vector<gid_t>{};
  if (spec.run_as && groups.empty()) groups.push_back(spec.run_as->gid);

  auto out = make_pipe(), err = make_pipe(), status = make_pipe();
  user_process_result r;
  // Orphans of the run come to the daemon, not to init: found and killed when the run ends.
  static const bool subreaper = [] {
    const bool ok = become_subreaper();
    if (!ok)
      spdlog::warn("command: this kernel refuses PR_SET_CHILD_SUBREAPER: a process a program starts outside its "
                   "process group (setsid) can outlive its run");
    return ok;
  }();
  (void)subreaper;
  std::optional<run_cgroup> cgroup;
  if (!spec.cgroup_parent.empty()) cgroup.emplace(spec.cgroup_parent, spec.cgroup_name);
  const std::uint64_t since_ticks = boot_ticks_now();
  r.t_start_ns = monotonic_ns();
  const pid_t daemon_pid = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw platform_error("fork failed for " + spec.program + ": " + std::strerror(errno));
  if (pid == 0)
    run_child(spec, argv.data(), envp.data(), out.w.get(), err.w.get(), status.w.get(), groups.data(), groups.size(),
              daemon_pid, cgroup ? cgroup->procs_fd() : -1);
  // Also from the parent, so that a kill of the group cannot race the child's own setpgid.
  ::setpgid(pid, pid);
  r.pid = pid;
  out.w.reset();
  err.w.reset();
  status.w.reset();
  child_failure failure{};
  ssize_t n;
  do {
    n = ::read(status.r.get(), &failure, sizeof failure);
  } while (n < 0 && errno == EINTR);
  status.r.reset();
  if (n == static_cast<ssize_t>(sizeof failure)) {
    int st = 0;
    ::waitpid(pid, &st, 0);
    throw platform_error("cannot start " + spec.program + ": " + k_steps[failure.step] + " failed: " +
                         std::strerror(failure.error));
  }
  if (on_start) on_start(pid);

  for (int fd : {out.r.get(), err.r.get()}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  const std::int64_t deadline = r.t_start_ns + static_cast<std::int64_t>(spec.timeout_s * 1e9);
  std::int64_t kill_at = 0;  // when SIGTERM was sent, SIGKILL follows at kill_at + grace
  int st = 0;
  char buf[8192];
  // One read from the program's stdout or stderr into its tail; the pipe closes at its end.
  const auto read_from = [&](unique_fd& fd) {
    const bool is_out = &fd == &out.r;
    const ssize_t got = ::read(fd.get(), buf, sizeof buf);
    if (got > 0) {
      append_tail(is_out ? r.out_tail : r.err_tail, buf, static_cast<std::size_t>(got), spec.tail_bytes);
      (is_out ? r.out_bytes : r.err_bytes) += static_cast<std::uint64_t>(got);
    } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
      fd.reset();
    }
  };
  for (;;) {
    pollfd fds[2];
    nfds_t nfds = 0;
    if (out.r) fds[nfds++] = {out.r.get(), POLLIN, 0};
    if (err.r) fds[nfds++] = {err.r.get(), POLLIN, 0};
    // 10 ms: the period at which cancellation and the program's exit are noticed.
    if (::poll(fds, nfds, 10) > 0) {
      for (nfds_t i = 0; i < nfds; ++i) {
        if (fds[i].revents) read_from(fds[i].fd == out.r.get() ? out.r : err.r);
      }
    }
    const pid_t w = ::waitpid(pid, &st, WNOHANG);
    if (w == pid) {
      r.t_end_ns = monotonic_ns();
      break;
    }
    const std::int64_t now = monotonic_ns();
    if (!kill_at) {
      if (now >= deadline) r.timed_out = true;
      else if (cancelled && cancelled()) r.cancelled = true;
      if (r.timed_out || r.cancelled) {
        ::kill(-pid, SIGTERM);
        kill_at = now;
      }
    } else if (now >= kill_at + static_cast<std::int64_t>(spec.kill_grace_s * 1e9)) {
      ::kill(-pid, SIGKILL);
    }
  }
  fill_status(r, st);
  // The group's stragglers (children the program left behind) end with it, and so do those that
  // left the group (setsid, a double fork): they were reparented to the daemon.
  ::kill(-pid, SIGKILL);
  const std::size_t in_cgroup = cgroup ? cgroup->kill() : 0;
  r.leftovers = std::max(in_cgroup, kill_run_leftovers(spec.run_as ? spec.run_as->uid : ::geteuid(), since_ticks).size());
  if (r.leftovers) spdlog::debug("command: {} left {} process(es) behind, killed and reaped", spec.program, r.leftovers);
  // What they wrote before dying; the pipes close when the last writer is gone.
  for (unique_fd* fd : {&out.r, &err.r}) {
    const std::int64_t drain_until = monotonic_ns() + 200'000'000;
    while (*fd && monotonic_ns() < drain_until) {
      pollfd p{fd->get(), POLLIN, 0};
      if (::poll(&p, 1, 20) > 0) read_from(*fd);
    }
  }
  return r;
}

}  // namespace jetperf::platform
