#pragma once
// A researcher's own program (command jobs): started with execve and an argument vector (never a
// shell), with only the environment it is given, as an unprivileged account, in a process group
// of its own. Cancel, timeout and the daemon's shutdown end the whole group: SIGTERM, then
// SIGKILL after a grace period; and when the program exits, whatever it left running in its
// group is killed too, and whatever left the group: everything in the run's cgroup
// (run_cgroup.hpp), and the daemon's orphans of the run (run_leftovers.hpp, where there is no
// cgroup), so nothing outlives its run. Its output is kept as bounded tails.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/platform/run_cgroup.hpp>
#include <jetperf/platform/user_account.hpp>

namespace jetperf::platform {

struct user_process_spec {
  std::string program;            ///< absolute path of the executable
  std::vector<std::string> argv;  ///< argv[0] included
  std::vector<std::string> env;   ///< "NAME=value", the whole environment
  std::string cwd = "/";
  /// The account to switch to; nullopt: keep the daemon's (only when it is that account).
  std::optional<user_account> run_as;
  std::size_t tail_bytes = 4096;  ///< the last this many bytes of stdout and of stderr are kept
  double timeout_s = 3600;
  double kill_grace_s = 2;        ///< SIGTERM to SIGKILL
  /// Where its cgroup is made (run_cgroup.hpp: find_run_cgroup_parent); empty: no cgroup.
  std::string cgroup_parent;
  /// Its cgroup's name under cgroup_parent ("run-<job>").
  std::string cgroup_name = "run";
  /// What it may use: its cgroup's pids.max and memory.max; where the cgroup cannot take one (no
  /// cgroup, the controller not delegated), RLIMIT_NPROC (the account's processes) and
  /// RLIMIT_DATA (each process's data) in the child instead.
  run_limits limits;
};

struct user_process_result {
  int exit_code = -1;       ///< exit status; -1 when a signal ended it
  int term_signal = 0;      ///< the signal that ended it, 0 otherwise
  bool timed_out = false;   ///< ended because timeout_s passed
  bool cancelled = false;   ///< ended because `cancelled` said so
  std::int64_t t_start_ns = 0;  ///< CLOCK_MONOTONIC just before the fork
  std::int64_t t_end_ns = 0;    ///< when the program's exit was seen
  std::string out_tail, err_tail;
  std::uint64_t out_bytes = 0, err_bytes = 0;  ///< everything it wrote, kept or not
  /// Processes it left behind that came to the daemon (its group's, reparented as they died, and
  /// those that left the group: setsid, a double fork), killed and reaped at its end.
  std::size_t leftovers = 0;
  int pid = 0;
  /// The program's CPU time, user and system, with that of the children it waited for (wait4's
  /// rusage); 0 until it has exited.
  double cpu_s = 0;
  /// What its limits did (from its cgroup's events; zeros where they were rlimits, which a
  /// program meets as failed forks and allocations of its own).
  run_limit_events limit_events;
  /// How each limit was held: "cgroup", "rlimit" or "" (none set).
  std::string processes_limited_by, memory_limited_by;
};

/// Runs the program to its end. `on_start(pid)` is called once it runs (before its output is
/// read); `cancelled` is polled every 10 ms. Throws platform_error when it cannot be started
/// (the message says why: no such program, permission, setuid refused, ...).
user_process_result run_user_process(const user_process_spec& spec, const std::function<bool()>& cancelled,
                                     const std::function<void(int pid)>& on_start = {});

}  // namespace jetperf::platform
