#pragma once
// What the daemon's configuration allows command jobs (jetperfd.conf: command_jobs,
// command_user, command_dirs, runtime_dir). Off unless enabled; the account is never root.
#include <optional>
#include <string>
#include <vector>

#include <jetperf/platform/run_cgroup.hpp>
#include <jetperf/platform/user_account.hpp>

namespace jetperf::kinds {

struct command_policy {
  bool enabled = false;
  /// Why command jobs are off, for the 4xx a submission gets (the config keys to set).
  std::string disabled_reason = "command jobs are off: set command_jobs = true and command_user in jetperfd.conf";
  /// The account programs run as.
  platform::user_account account;
  /// Whether the daemon switches to `account` (it runs as root) or already is it.
  bool switch_user = true;
  /// Programs must resolve (symbolic links followed) inside one of these; empty: anywhere.
  std::vector<std::string> allowed_dirs;
  /// Where each job's marker socket is made (one per job, removed when it ends).
  std::string runtime_dir = "/run/jetperf";
  /// Where each run's cgroup is made (platform::find_run_cgroup_parent); empty: runs are
  /// contained by their process group and the daemon's orphan sweep only.
  std::string cgroup_parent;
  /// Bytes of stdout and of stderr kept per run (the tail).
  std::size_t tail_bytes = 4096;
  /// The most a run may use (jetperfd.conf's command_max_processes and command_max_memory_mb):
  /// a spec's max_processes and max_memory_mb default to them and may not exceed them.
  platform::run_limits limits{4096, 3ull << 30};
};

}  // namespace jetperf::kinds
