#include "command_setup.hpp"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include <spdlog/spdlog.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/run_cgroup.hpp>
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

}  // namespace

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
  std::string why;
  if (const auto parent = platform::find_run_cgroup_parent(&why)) {
    policy.cgroup_parent = *parent;
    spdlog::info("command: each run gets a cgroup of its own under {}", *parent);
  } else {
    spdlog::warn("command: runs get no cgroup of their own ({}): a program's processes that leave its process "
                 "group are still killed at its end, while the daemon lives", why);
  }
  policy.enabled = true;
  return policy;
}

}  // namespace jetperf::daemon
