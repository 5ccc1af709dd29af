#pragma once
// What a command run leaves behind outside its process group. A program can escape the group
// kill by forking a child that calls setsid() (or daemonizes twice). The daemon is a child
// subreaper (PR_SET_CHILD_SUBREAPER), so every orphan of its descendants is reparented to it
// rather than to init; after each run, its children that run as the program's account and
// started during the run are killed and reaped, round after round (an escapee's own children
// come to the daemon as it dies), until none is left: nothing a run started outlives it while
// the daemon lives. (A program that outlives a killed daemon is the parent-death signal's.)
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jetperf::platform {

struct proc_entry {
  pid_t pid = 0;
  pid_t ppid = 0;
  pid_t pgrp = 0;                 ///< its process group (field 5)
  std::uint64_t start_ticks = 0;  ///< clock ticks after boot (field 22)
};

/// One /proc/<pid>/stat line; nullopt when it does not parse. The command, in parentheses, may
/// hold spaces and parentheses of its own: the fields after it are read from the last ')'.
std::optional<proc_entry> parse_proc_stat(const std::string& line);

/// Makes this process the subreaper of its descendants' orphans (idempotent); false when the
/// kernel refuses (Linux before 3.4; qemu-user 7.2, whose prctl answers it EINVAL).
bool become_subreaper();

/// Now, in /proc's start-time ticks (CLOCK_BOOTTIME at USER_HZ).
std::uint64_t boot_ticks_now();

/// Kills (SIGKILL) and reaps this process's children that run as `uid`, started at or after
/// `since_ticks` and are not in this process's own group (where the daemon's own tools run:
/// nvpmodel, tegrastats; a run's processes never are, its program has a group of its own), until three rounds 5 ms apart find none or `rounds` have passed. Returns the
/// pids killed or reaped (the group's members reparented here as they died count too).
std::vector<pid_t> kill_run_leftovers(uid_t uid, std::uint64_t since_ticks, int rounds = 50);

}  // namespace jetperf::platform
