#include "command_setup.hpp"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <spdlog/spdlog.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/meminfo.hpp>
#include <jetperf/platform/run_cgroup.hpp>
#include <jetperf/platform/run_watchdog.hpp>
#include <jetperf/platform/user_account.hpp>

#include "atomic_file.hpp"

namespace jetperf::daemon {

namespace {

// Each run's marker socket is made in the runtime directory by root and handed to the program's
// account: only jetperfd's account may write there, or another (the program's own, say) could
// put a symbolic link where the socket goes, fill the directory, or remove a run's socket.
void check_runtime_dir(const std::string& dir) {
  if (dir.empty() || dir.front() != '/') throw config_error("runtime_dir: '" + dir + "' is not an absolute path");
  try {
    ensure_directory(dir, 0755);
  } catch (const std::exception& e) {
    throw config_error(std::string("runtime_dir: ") + e.what());
  }
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw config_error("runtime_dir: '" + dir + "' is not a directory (a symbolic link to one is not accepted either)");
  if (st.st_uid != ::geteuid())
    throw config_error("runtime_dir: '" + dir + "' belongs to uid " + std::to_string(st.st_uid) + ", not to jetperfd's (uid " +
                       std::to_string(::geteuid()) + ")");
  if ((st.st_mode & 022) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    throw config_error("runtime_dir: '" + dir + "' is writable by others (mode " + mode +
                       "): only jetperfd's account may write in it");
  }
}

// A daemon's own group of runs (outside systemd, whose unit kills what is left when the daemon
// dies) gets a watchdog that kills its runs when the daemon dies, however it dies.
void start_watchdog_outside_systemd(const std::string& parent) {
  if (parent.find("/jetperf.slice/jetperfd-") == std::string::npos) return;
  std::string why;
  const int pid = platform::start_run_watchdog(parent, &why);
  if (pid > 0) spdlog::info("command: watchdog {} kills the runs under {} if this daemon dies", pid, parent);
  else spdlog::warn("command: no watchdog for the runs under {} ({}): if this daemon is killed, what its runs "
                    "started runs on until the next start; only systemd's unit guarantees it", parent, why);
}

}  // namespace

platform::run_limits run_limits_of(const daemon_config& config) {
  platform::run_limits limits;
  limits.max_processes = static_cast<std::uint64_t>(config.command_max_processes);
  if (config.command_max_memory_mb > 0) {
    limits.max_memory_bytes = static_cast<std::uint64_t>(config.command_max_memory_mb) << 20;
  } else {
    // The host's memory less what the daemon and the board need to stay alive: a quarter, at
    // least 1 GiB (a 4 GB Nano keeps 1 GiB, a 64 GB Orin 16 GiB).
    const auto total = platform::host_memory_info().total_bytes.value_or(4ll << 30);
    const auto keep = std::max<std::int64_t>(total / 4, 1ll << 30);
    limits.max_memory_bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(total - keep, 256ll << 20));
  }
  return limits;
}

kinds::command_policy command_policy_of(const daemon_config& config) {
  kinds::command_policy policy;
  if (!config.command_jobs) return policy;
  if (config.command_user.empty())
    throw config_error("command_jobs = true needs command_user: the unprivileged account programs run as");
  try {
    policy.account = platform::lookup_unprivileged_account(config.command_user);
  } catch (const platform_error& e) {
    throw config_error(std::string("command_user: ") + e.what());
  }
  const uid_t self = ::geteuid();
  policy.switch_user = self == 0;
  if (self != 0 && policy.account.uid != self)
    throw config_error("command_user: jetperfd runs as uid " + std::to_string(self) + " and cannot run programs as '" +
                       config.command_user + "' (run it as root, or name its own account)");
  for (const auto& dir : config.command_dirs) {
    char buf[PATH_MAX];
    struct stat st {};
    if (dir.empty() || dir.front() != '/' || !::realpath(dir.c_str(), buf) || ::stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
      throw config_error("command_dirs: '" + dir + "' is not an absolute path to a directory");
    policy.allowed_dirs.emplace_back(buf);
  }
  policy.runtime_dir = config.runtime_dir;
  // Traversable by the program's account (its marker socket is inside), writable by root only.
  check_runtime_dir(policy.runtime_dir);
  policy.limits = run_limits_of(config);
  std::string why;
  if (const auto parent = platform::find_run_cgroup_parent(&why)) {
    policy.cgroup_parent = *parent;
    spdlog::info("command: each run gets a cgroup of its own under {}", *parent);
    start_watchdog_outside_systemd(*parent);
    if (const auto why_not = platform::leave_run_parent(*parent); !why_not.empty())
      spdlog::warn("command: the daemon stays in its unit's cgroup ({}): runs get no memory controller", why_not);
    const auto missing = platform::enable_run_limit_controllers(*parent);
    if (!missing.empty())
      spdlog::warn("command: runs' processes and memory are limited by RLIMIT_NPROC and RLIMIT_DATA, not by their "
                   "cgroup's pids.max and memory.max ({})", missing);
  } else {
    spdlog::warn("command: runs get no cgroup of their own ({}): a program's processes that leave its process "
                 "group are still killed at its end, while the daemon lives; its processes and memory are limited "
                 "by RLIMIT_NPROC and RLIMIT_DATA", why);
  }
  policy.enabled = true;
  return policy;
}

}  // namespace jetperf::daemon
