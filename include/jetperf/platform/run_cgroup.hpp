#pragma once
// A command run's own cgroup (cgroup v2), so that nothing the program starts outlives its run,
// whatever it does (setsid, a double fork, a daemon of its own): the program joins it between
// fork and execve, everything it starts is born in it, and the run's end kills the whole cgroup
// (cgroup.kill, Linux >= 5.14; before that: freeze, SIGKILL each member, thaw) and removes it.
//   Where: run-<job> under the daemon's own cgroup when that is its systemd unit's (the unit has
//   Delegate=yes; systemd kills what is left there when the daemon dies), else under
//   <cgroup2 mount>/jetperf.slice/jetperfd-<pid>, whose groups of daemons that are gone (kill -9)
//   are killed and removed when a daemon starts.
// Where the host has no writable cgroup v2 (cgroup v1 only, no permission), runs are contained by
// their process group and the subreaper sweep alone (user_process.hpp), and the daemon says so.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace jetperf::platform {

/// Where runs' cgroups go, from the mountinfo and /proc/self/cgroup texts (nothing is checked
/// on disk); nullopt with `why` without a cgroup v2 hierarchy or membership.
std::optional<std::string> run_cgroup_parent_of(const std::string& mountinfo, const std::string& proc_cgroup,
                                                std::string* why);
/// This process's: the texts read from /proc/self, the directory made when missing (jetperf.slice)
/// and its runs' files checked writable. nullopt with `why` where runs cannot be contained.
std::optional<std::string> find_run_cgroup_parent(std::string* why);

/// What a run may use at most; 0: no limit.
struct run_limits {
  std::uint64_t max_processes = 0;     ///< processes and threads alive at once (pids.max)
  std::uint64_t max_memory_bytes = 0;  ///< memory (memory.max, with no swap past it)
};

/// Which limits a run's cgroup took: a controller not delegated to its parent has no files there.
struct run_limits_taken {
  bool processes = false;
  bool memory = false;
};

/// What the limits did to a run: its cgroup's events (memory.events' oom_kill, pids.events' max).
struct run_limit_events {
  std::uint64_t oom_kills = 0;     ///< processes the kernel killed for memory past memory.max
  std::uint64_t pids_refused = 0;  ///< forks and clones refused at pids.max
};

/// Enables the pids and memory controllers for `parent`'s children (cgroup.subtree_control), so
/// that runs' cgroups can take limits; "" when they are, else why not (a cgroup with processes of
/// its own cannot hand controllers down; a parent that lacks them has none to give).
std::string enable_run_limit_controllers(const std::string& parent);

/// Under systemd the daemon sits in its unit's cgroup, the runs' parent, and cgroup v2 lets a
/// group that holds processes hand no memory controller down ("no internal processes"): the
/// daemon moves into a leaf of its own, <parent>/daemon, as systemd's DelegateSubgroup= does.
/// "" when it did or had nothing to do (its cgroup is not `parent`), else why not.
std::string leave_run_parent(const std::string& parent);

/// Removes this daemon's own group of runs (jetperf.slice/jetperfd-<pid>) at a clean stop, with
/// what is left in it; a systemd unit's own cgroup (systemd removes it) is left alone.
void remove_run_cgroup_parent(const std::string& parent);

class run_cgroup {
 public:
  /// Makes <parent>/<name>, or <parent>/<name>.<pid of this process> when that is in use (an
  /// empty one left behind is taken). Throws platform_error when it cannot.
  run_cgroup(const std::string& parent, const std::string& name);
  /// kill(), then removes the directory.
  ~run_cgroup();
  run_cgroup(const run_cgroup&) = delete;
  run_cgroup& operator=(const run_cgroup&) = delete;

  const std::string& path() const { return path_; }
  /// Its cgroup.procs, open for writing: a child writes "0" into it to join (async-signal-safe).
  int procs_fd() const { return procs_fd_; }
  /// Kills every process in it and waits (up to 2 s) until none is left; returns how many there
  /// were.
  std::size_t kill();
  /// Writes the limits set (before anything joins); says which it took.
  run_limits_taken limit(const run_limits& limits);
  /// What the limits did so far (zeros where the controllers are absent).
  run_limit_events events() const;

 private:
  std::string path_;
  int procs_fd_ = -1;
};

/// Kills and removes the run cgroups ("run-*") under `parent`: what a previous daemon left.
/// Returns how many there were.
std::size_t remove_run_cgroups(const std::string& parent);

}  // namespace jetperf::platform
