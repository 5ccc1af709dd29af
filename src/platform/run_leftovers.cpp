#include <jetperf/platform/run_leftovers.hpp>

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace jetperf::platform {

std::optional<proc_entry> parse_proc_stat(const std::string& line) {
  const auto open = line.find('(');
  const auto close = line.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  proc_entry e;
  e.pid = static_cast<pid_t>(std::atol(line.substr(0, open).c_str()));
  // After the command: state (3), ppid (4), pgrp (5), ... starttime (22).
  std::istringstream rest(line.substr(close + 1));
  std::string field;
  for (int n = 3; n <= 22 && rest >> field; ++n) {
    if (n == 4) e.ppid = static_cast<pid_t>(std::atol(field.c_str()));
    if (n == 5) e.pgrp = static_cast<pid_t>(std::atol(field.c_str()));
    if (n == 22) {
      e.start_ticks = std::strtoull(field.c_str(), nullptr, 10);
      return e.pid > 0 ? std::optional<proc_entry>(e) : std::nullopt;
    }
  }
  return std::nullopt;
}

bool become_subreaper() { return ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0; }

std::uint64_t boot_ticks_now() {
  timespec ts{};
  ::clock_gettime(CLOCK_BOOTTIME, &ts);
  const auto hz = static_cast<std::uint64_t>(::sysconf(_SC_CLK_TCK));
  return static_cast<std::uint64_t>(ts.tv_sec) * hz + static_cast<std::uint64_t>(ts.tv_nsec) * hz / 1'000'000'000u;
}

namespace {

// The real uid on the "Uid:" line of /proc/<pid>/status (-1 when unreadable). Not the owner of
// /proc/<pid>: a process that is not dumpable shows as root's there.
uid_t real_uid(const std::string& base) {
  std::ifstream in(base + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, 4, "Uid:") == 0) return static_cast<uid_t>(std::strtoul(line.c_str() + 4, nullptr, 10));
  return static_cast<uid_t>(-1);
}

// This process's children that run as `uid`, started at or after `since` (the run's) and are
// outside its own process group (its own tools are inside).
std::vector<pid_t> leftovers(uid_t uid, std::uint64_t since) {
  std::vector<pid_t> out;
  const pid_t self = ::getpid(), own_group = ::getpgrp();
  DIR* dir = ::opendir("/proc");
  if (!dir) return out;
  while (const dirent* d = ::readdir(dir)) {
    const pid_t pid = static_cast<pid_t>(std::atol(d->d_name));
    if (pid <= 0) continue;
    const std::string base = std::string("/proc/") + d->d_name;
    std::ifstream in(base + "/stat");
    std::string line;
    if (!std::getline(in, line)) continue;
    const auto e = parse_proc_stat(line);
    if (!e || e->ppid != self || e->pgrp == own_group || e->start_ticks < since) continue;
    if (real_uid(base) != uid) continue;
    out.push_back(pid);
  }
  ::closedir(dir);
  return out;
}

}  // namespace

std::vector<pid_t> kill_run_leftovers(uid_t uid, std::uint64_t since_ticks, int rounds) {
  std::vector<pid_t> killed;
  // Members of the killed group whose parent died with them come here a moment later, as
  // zombies to reap or as processes to kill: done after three rounds in a row find none.
  for (int round = 0, empty = 0; round < rounds && empty < 3; ++round) {
    const auto found = leftovers(uid, since_ticks);
    if (found.empty()) {
      ++empty;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    empty = 0;
    for (pid_t pid : found) ::kill(pid, SIGKILL);
    // Reaped one by one (never waitpid(-1): other threads wait for children of their own).
    for (pid_t pid : found) {
      for (int i = 0; i < 200 && ::waitpid(pid, nullptr, WNOHANG) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      killed.push_back(pid);
    }
  }
  return killed;
}

}  // namespace jetperf::platform
