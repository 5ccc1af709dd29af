#pragma once
// What the configuration allows command jobs, checked once at start: a daemon that cannot run
// them as configured refuses to start (config_error) rather than fail each job.
#include <jetperf/kinds/command/command_policy.hpp>

#include "daemon_config.hpp"

namespace jetperf::daemon {

/// The policy of `config`; when command jobs are enabled it also makes runtime_dir. Throws
/// config_error naming the key: command_user missing, unknown or root, an account this daemon
/// cannot switch to, a command_dirs entry that is not a directory.
kinds::command_policy command_policy_of(const daemon_config& config);

/// The most one run may use: command_max_processes, and command_max_memory_mb or (0) the host's
/// memory less a quarter of it (at least 1 GiB kept).
platform::run_limits run_limits_of(const daemon_config& config);

}  // namespace jetperf::daemon
