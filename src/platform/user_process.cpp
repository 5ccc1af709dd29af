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
                               "execve", "prctl(PR_SET_PDEATHSIG)", "joining its cgroup",
                               "prctl(PR_SET_NO_NEW_PRIVS)", "setrlimit(RLIMIT_NPROC)", "setrlimit(RLIMIT_DATA)"};

[[noreturn]] void child_fail(int fd, int step) {
  child_failure f{step, errno};
  ssize_t ignored = ::write(fd, &f, sizeof f);
  (void)ignored;
  ::_exit(127);
}

// Between fork and execve: async-signal-safe calls only (the daemon has threads).
[[noreturn]] void run_child(const user_process_spec& spec, char* const* argv, char* const* envp, int out_fd,
                            int err_fd, int status_fd, const gid_t* groups, std::size_t group_count, pid_t daemon_pid,
                            int cgroup_fd, rlim_t max_processes, rlim_t max_data) {
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
  // The limits the run's cgroup could not take, as rlimits: RLIMIT_NPROC counts the account's
  // processes (root's are not limited by it: only with run_as), RLIMIT_DATA each process's data
  // (heap and private writable mappings). Not RLIMIT_AS: CUDA reserves far more address space
  // than a board has memory at its start, and every GPU program would fail under it.
  const struct rlimit nproc {max_processes, max_processes}, data {max_data, max_data};
  if (max_processes && ::setrlimit(RLIMIT_NPROC, &nproc) != 0) child_fail(status_fd, 11);
  if (max_data && ::setrlimit(RLIMIT_DATA, &data) != 0) child_fail(status_fd, 12);
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
  // Nothing it runs gains privileges (set-user-ID programs, file capabilities), whoever starts
  // the daemon (the .deb's unit sets it too; a daemon started from a shell did not).
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) child_fail(status_fd, 10);
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

// What the child needs between fork and execve, made before the fork: the child may not allocate.
struct exec_args {
  std::vector<char*> argv, envp;
  std::vector<gid_t> groups;
};

exec_args exec_args_of(const user_process_spec& spec) {
  exec_args a;
  for (const auto& arg : spec.argv) a.argv.push_back(const_cast<char*>(arg.c_str()));
  a.argv.push_back(nullptr);
  for (const auto& e : spec.env) a.envp.push_back(const_cast<char*>(e.c_str()));
  a.envp.push_back(nullptr);
  a.groups = spec.run_as ? spec.run_as->groups : std::vector<gid_t>{};
  if (spec.run_as && a.groups.empty()) a.groups.push_back(spec.run_as->gid);
  return a;
}

// Orphans of the run come to the daemon, not to init: found and killed when the run ends.
void become_subreaper_once() {
  static const bool subreaper = [] {
    const bool ok = become_subreaper();
    if (!ok)
      spdlog::warn("command: this kernel refuses PR_SET_CHILD_SUBREAPER: a process a program starts outside its "
                   "process group (setsid) can outlive its run");
    return ok;
  }();
  (void)subreaper;
}

// Waits for the child's execve: the status pipe closes on it (close-on-exec), or brings back the
// step that failed, reported after the child is reaped.
void wait_for_exec(unique_fd& status_r, pid_t pid, const std::string& program) {
  child_failure failure{};
  ssize_t n;
  do {
    n = ::read(status_r.get(), &failure, sizeof failure);
  } while (n < 0 && errno == EINTR);
  status_r.reset();
  if (n == static_cast<ssize_t>(sizeof failure)) {
    int st = 0;
    ::waitpid(pid, &st, 0);
    throw platform_error("cannot start " + program + ": " + k_steps[failure.step] + " failed: " +
                         std::strerror(failure.error));
  }
}

// The program's stdout and stderr, read into the result's tails (and byte counts) as they come.
class output_reader {
 public:
  output_reader(unique_fd& out, unique_fd& err, user_process_result& r, std::size_t tail_bytes)
      : out_(out), err_(err), r_(r), tail_bytes_(tail_bytes) {}

  // One read from `fd` (out or err) into its tail; the pipe closes at its end.
  void read_from(unique_fd& fd) {
    const bool is_out = &fd == &out_;
    const ssize_t got = ::read(fd.get(), buf_, sizeof buf_);
    if (got > 0) {
      append_tail(is_out ? r_.out_tail : r_.err_tail, buf_, static_cast<std::size_t>(got), tail_bytes_);
      (is_out ? r_.out_bytes : r_.err_bytes) += static_cast<std::uint64_t>(got);
    } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
      fd.reset();
    }
  }

  // Waits up to `timeout_ms` for output and reads what came.
  void poll_once(int timeout_ms) {
    pollfd fds[2];
    nfds_t nfds = 0;
    if (out_) fds[nfds++] = {out_.get(), POLLIN, 0};
    if (err_) fds[nfds++] = {err_.get(), POLLIN, 0};
    if (::poll(fds, nfds, timeout_ms) > 0) {
      for (nfds_t i = 0; i < nfds; ++i) {
        if (fds[i].revents) read_from(fds[i].fd == out_.get() ? out_ : err_);
      }
    }
  }

  // What the group's last processes wrote before dying; the pipes close when the last writer is gone.
  void drain() {
    for (unique_fd* fd : {&out_, &err_}) {
      const std::int64_t drain_until = monotonic_ns() + 200'000'000;
      while (*fd && monotonic_ns() < drain_until) {
        pollfd p{fd->get(), POLLIN, 0};
        if (::poll(&p, 1, 20) > 0) read_from(*fd);
      }
    }
  }

 private:
  unique_fd& out_;
  unique_fd& err_;
  user_process_result& r_;
  std::size_t tail_bytes_;
  char buf_[8192];
};

// Reads the program's output until it exits, ending its group with SIGTERM when the timeout
// passes or `cancelled` says so, and SIGKILL kill_grace_s later. Returns its wait status.
int supervise(pid_t pid, const user_process_spec& spec, const std::function<bool()>& cancelled, output_reader& output,
              user_process_result& r) {
  const std::int64_t deadline = r.t_start_ns + static_cast<std::int64_t>(spec.timeout_s * 1e9);
  std::int64_t kill_at = 0;  // when SIGTERM was sent, SIGKILL follows at kill_at + grace
  int st = 0;
  for (;;) {
    // 10 ms: the period at which cancellation and the program's exit are noticed.
    output.poll_once(10);
    // wait4: the program's CPU time comes with its status (its own and its waited-for
    // children's), which the daemon's contention figure must not count as another's.
    rusage usage{};
    const pid_t w = ::wait4(pid, &st, WNOHANG, &usage);
    if (w == pid) {
      r.t_end_ns = monotonic_ns();
      const auto seconds = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6; };
      r.cpu_s = seconds(usage.ru_utime) + seconds(usage.ru_stime);
      return st;
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
}

// The group's stragglers (children the program left behind) end with it, and so do those that
// left the group (setsid, a double fork): they were reparented to the daemon.
void end_leftovers(pid_t pid, const user_process_spec& spec, std::optional<run_cgroup>& cgroup,
                   std::uint64_t since_ticks, user_process_result& r) {
  ::kill(-pid, SIGKILL);
  const std::size_t in_cgroup = cgroup ? cgroup->kill() : 0;
  r.leftovers = std::max(in_cgroup, kill_run_leftovers(spec.run_as ? spec.run_as->uid : ::geteuid(), since_ticks).size());
  if (r.leftovers) spdlog::debug("command: {} left {} process(es) behind, killed and reaped", spec.program, r.leftovers);
}
}  // namespace

user_process_result run_user_process(const user_process_spec& spec, const std::function<bool()>& cancelled,
                                     const std::function<void(int pid)>& on_start) {
  if (spec.argv.empty()) throw platform_error("cannot start a program: empty argument vector");
  if (spec.program.empty() || spec.program.front() != '/')
    throw platform_error("cannot start '" + spec.program + "': not an absolute path");
  exec_args args = exec_args_of(spec);

  auto out = make_pipe(), err = make_pipe(), status = make_pipe();
  user_process_result r;
  become_subreaper_once();
  std::optional<run_cgroup> cgroup;
  run_limits_taken taken;
  if (!spec.cgroup_parent.empty()) {
    cgroup.emplace(spec.cgroup_parent, spec.cgroup_name);
    taken = cgroup->limit(spec.limits);
  }
  const auto how = [](std::uint64_t limit, bool by_cgroup) { return !limit ? "" : by_cgroup ? "cgroup" : "rlimit"; };
  r.processes_limited_by = how(spec.limits.max_processes, taken.processes);
  r.memory_limited_by = how(spec.limits.max_memory_bytes, taken.memory);
  const rlim_t rlimit_processes = taken.processes ? 0 : static_cast<rlim_t>(spec.limits.max_processes);
  const rlim_t rlimit_data = taken.memory ? 0 : static_cast<rlim_t>(spec.limits.max_memory_bytes);
  const std::uint64_t since_ticks = boot_ticks_now();
  r.t_start_ns = monotonic_ns();
  const pid_t daemon_pid = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw platform_error("fork failed for " + spec.program + ": " + std::strerror(errno));
  if (pid == 0)
    run_child(spec, args.argv.data(), args.envp.data(), out.w.get(), err.w.get(), status.w.get(), args.groups.data(),
              args.groups.size(), daemon_pid, cgroup ? cgroup->procs_fd() : -1, rlimit_processes, rlimit_data);
  // Also from the parent, so that a kill of the group cannot race the child's own setpgid.
  ::setpgid(pid, pid);
  r.pid = pid;
  out.w.reset();
  err.w.reset();
  status.w.reset();
  wait_for_exec(status.r, pid, spec.program);
  if (on_start) on_start(pid);

  for (int fd : {out.r.get(), err.r.get()}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  output_reader output(out.r, err.r, r, spec.tail_bytes);
  fill_status(r, supervise(pid, spec, cancelled, output, r));
  if (cgroup) r.limit_events = cgroup->events();
  end_leftovers(pid, spec, cgroup, since_ticks, r);
  output.drain();
  return r;
}

}  // namespace jetperf::platform
