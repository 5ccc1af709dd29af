#include "command_setup.hpp"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/user_account.hpp>

#include "atomic_file.hpp"

namespace jetperf::daemon {

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
  ensure_directory(policy.runtime_dir, 0755);
  policy.enabled = true;
  return policy;
}

}  // namespace jetperf::daemon
