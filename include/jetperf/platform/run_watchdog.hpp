#pragma once
// Outside systemd nothing kills what a daemon's runs left running when the daemon itself is
// killed (kill -9, the OOM killer): the parent-death signal reaches each run's first process
// only, and the next start's sweep may be hours away. A watchdog process, started once, waits
// for the daemon's end (a pipe only the daemon holds open closes, however it dies) and then kills
// every run's cgroup at once (cgroup.kill on their parent, Linux >= 5.14). Under systemd the
// unit's own cgroup does this, and no watchdog is needed.
#include <string>

namespace jetperf::platform {

/// Starts the watchdog for `parent` (a daemon's own jetperf.slice/jetperfd-<pid>); returns its
/// pid, or -1 with `why` (fork failed, or the kernel has no cgroup.kill to kill with).
int start_run_watchdog(const std::string& parent, std::string* why);

}  // namespace jetperf::platform
