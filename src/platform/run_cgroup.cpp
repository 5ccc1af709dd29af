#include <jetperf/platform/run_cgroup.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/cgroup_paths.hpp>
#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::platform {

namespace {

constexpr auto k_kill_wait = std::chrono::seconds(2);
constexpr const char* k_slice = "jetperf.slice";

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool write_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

std::vector<pid_t> members(const std::string& dir) {
  std::vector<pid_t> out;
  std::istringstream in(read_all(dir + "/cgroup.procs"));
  for (long pid; in >> pid;) out.push_back(static_cast<pid_t>(pid));
  return out;
}

// Kills everything in `dir` and waits until it is empty; returns how many members it had.
std::size_t kill_members(const std::string& dir) {
  const auto before = members(dir);
  if (before.empty()) return 0;
  const bool has_kill = write_file(dir + "/cgroup.kill", "1");
  // Without cgroup.kill (Linux < 5.14): frozen, members cannot fork while they are killed one by one.
  const bool frozen = !has_kill && write_file(dir + "/cgroup.freeze", "1");
  const auto until = std::chrono::steady_clock::now() + k_kill_wait;
  for (;;) {
    const auto left = members(dir);
    if (left.empty()) break;
    if (std::chrono::steady_clock::now() > until) break;
    if (!has_kill)
      for (pid_t p : left) ::kill(p, SIGKILL);
    if (frozen) write_file(dir + "/cgroup.freeze", "0");  // a frozen task dies of SIGKILL once thawed
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return before.size();
}

// rmdir, retried while the last members are still leaving (EBUSY).
void remove_dir(const std::string& dir) {
  const auto until = std::chrono::steady_clock::now() + k_kill_wait;
  while (::rmdir(dir.c_str()) != 0 && errno == EBUSY && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

// The groups of daemons that are gone (kill -9), with what their runs left running.
void remove_stale_daemon_cgroups(const std::string& slice) {
  std::vector<std::string> stale;
  if (DIR* d = ::opendir(slice.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      if (std::strncmp(e->d_name, "jetperfd-", 9) != 0) continue;
      const int pid = std::atoi(e->d_name + 9);
      if (pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH) stale.push_back(slice + "/" + e->d_name);
    }
    ::closedir(d);
  }
  for (const auto& dir : stale) {
    remove_run_cgroups(dir);
    remove_dir(dir);
  }
}

}  // namespace

std::optional<std::string> run_cgroup_parent_of(const std::string& mountinfo, const std::string& proc_cgroup,
                                                std::string* why) {
  const auto mount = cgroup2_mount_point(mountinfo);
  if (!mount) {
    if (why) *why = "no cgroup v2 hierarchy is mounted";
    return std::nullopt;
  }
  const auto own = cgroup2_dir(mountinfo, proc_cgroup);
  if (!own) {
    if (why) *why = "this process has no cgroup v2 membership (/proc/self/cgroup has no 0:: line)";
    return std::nullopt;
  }
  // Under systemd the daemon's cgroup is its unit's, delegated to it (Delegate=yes), and systemd
  // kills what is left in it when the daemon dies; elsewhere (the root, a shell's session scope)
  // a group of this daemon's own in a slice of jetperf's at the hierarchy's top, so that several
  // daemons on one host (tests) keep to their own runs.
  const bool own_unit = own->size() > mount->size() && own->find(".service", mount->size()) != std::string::npos;
  return own_unit ? *own : *mount + "/" + k_slice + "/jetperfd-" + std::to_string(::getpid());
}

std::optional<std::string> find_run_cgroup_parent(std::string* why) {
  const auto mountinfo = read_all(paths::self_mountinfo);
  auto parent = run_cgroup_parent_of(mountinfo, read_all(paths::self_cgroup), why);
  if (!parent) return std::nullopt;
  const std::string slice = cgroup2_mount_point(mountinfo).value_or("") + "/" + k_slice;
  const bool in_slice = parent->rfind(slice + "/", 0) == 0;
  if (in_slice) ::mkdir(slice.c_str(), 0755);
  if (::mkdir(parent->c_str(), 0755) != 0 && errno != EEXIST) {
    if (why) *why = "cannot make " + *parent + ": " + std::strerror(errno);
    return std::nullopt;
  }
  if (in_slice) remove_stale_daemon_cgroups(slice);
  // A probe: a cgroup made, its cgroup.procs opened for writing, removed.
  const std::string probe = *parent + "/probe-" + std::to_string(::getpid());
  if (::mkdir(probe.c_str(), 0755) != 0) {
    if (why) *why = "cannot make a cgroup under " + *parent + ": " + std::strerror(errno);
    return std::nullopt;
  }
  const int fd = ::open((probe + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
  const int open_errno = errno;
  if (fd >= 0) ::close(fd);
  ::rmdir(probe.c_str());
  if (fd < 0) {
    if (why) *why = "cannot write " + probe + "/cgroup.procs: " + std::strerror(open_errno);
    return std::nullopt;
  }
  return parent;
}

namespace {

// Whether a cgroup file's space-separated list names `word`.
bool lists(const std::string& text, const std::string& word) {
  std::istringstream in(text);
  for (std::string w; in >> w;)
    if (w == word) return true;
  return false;
}

}  // namespace

std::string enable_run_limit_controllers(const std::string& parent) {
  const std::string available = read_all(parent + "/cgroup.controllers");
  const std::string enabled = read_all(parent + "/cgroup.subtree_control");
  std::string missing;
  for (const char* c : {"pids", "memory"}) {
    if (lists(enabled, c)) continue;
    if (!lists(available, c)) {
      missing += std::string(missing.empty() ? "" : "; ") + "the " + c + " controller is not available in " + parent;
      continue;
    }
    if (!write_file(parent + "/cgroup.subtree_control", std::string("+") + c))
      missing += std::string(missing.empty() ? "" : "; ") + "cannot enable the " + c + " controller under " + parent +
                 ": " + std::strerror(errno);
  }
  return missing;
}

std::string leave_run_parent(const std::string& parent) {
  const auto own = cgroup2_dir(read_all(paths::self_mountinfo), read_all(paths::self_cgroup));
  if (!own || *own != parent) return {};
  const std::string leaf = parent + "/daemon";
  if (::mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST) return "cannot make " + leaf + ": " + std::strerror(errno);
  // The whole process moves (cgroup v2 moves every thread of a process written to cgroup.procs).
  if (!write_file(leaf + "/cgroup.procs", "0")) return "cannot move into " + leaf + ": " + std::strerror(errno);
  return {};
}

void remove_run_cgroup_parent(const std::string& parent) {
  const auto slash = parent.rfind('/');
  if (slash == std::string::npos || parent.compare(slash + 1, 9, "jetperfd-") != 0) return;
  remove_run_cgroups(parent);
  remove_dir(parent);
}

namespace {

std::uint64_t event_count(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string k;
  std::uint64_t v = 0;
  while (in >> k >> v)
    if (k == key) return v;
  return 0;
}

}  // namespace

run_limits_taken run_cgroup::limit(const run_limits& limits) {
  run_limits_taken taken;
  if (limits.max_processes) taken.processes = write_file(path_ + "/pids.max", std::to_string(limits.max_processes));
  if (limits.max_memory_bytes) {
    taken.memory = write_file(path_ + "/memory.max", std::to_string(limits.max_memory_bytes));
    // Swap past the limit would only slow the board down instead of ending the run.
    if (taken.memory) write_file(path_ + "/memory.swap.max", "0");
  }
  return taken;
}

run_limit_events run_cgroup::events() const {
  run_limit_events e;
  e.oom_kills = event_count(read_all(path_ + "/memory.events"), "oom_kill");
  e.pids_refused = event_count(read_all(path_ + "/pids.events"), "max");
  return e;
}

run_cgroup::run_cgroup(const std::string& parent, const std::string& name) {
  path_ = parent + "/" + name;
  if (::mkdir(path_.c_str(), 0755) != 0) {
    if (errno != EEXIST) throw platform_error("cannot make the run's cgroup " + path_ + ": " + std::strerror(errno));
    // Left behind empty (its run ended, its removal failed): taken; in use: one of our own.
    if (!members(path_).empty()) {
      path_ += "." + std::to_string(::getpid());
      if (::mkdir(path_.c_str(), 0755) != 0 && errno != EEXIST)
        throw platform_error("cannot make the run's cgroup " + path_ + ": " + std::strerror(errno));
    }
  }
  procs_fd_ = ::open((path_ + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
  if (procs_fd_ < 0) {
    const int err = errno;
    ::rmdir(path_.c_str());
    throw platform_error("cannot open " + path_ + "/cgroup.procs: " + std::strerror(err));
  }
}

run_cgroup::~run_cgroup() {
  if (procs_fd_ >= 0) ::close(procs_fd_);
  kill();
  remove_dir(path_);
}

std::size_t run_cgroup::kill() { return kill_members(path_); }

std::size_t remove_run_cgroups(const std::string& parent) {
  std::vector<std::string> found;
  if (DIR* d = ::opendir(parent.c_str())) {
    while (const dirent* e = ::readdir(d))
      if (std::strncmp(e->d_name, "run-", 4) == 0) found.push_back(parent + "/" + e->d_name);
    ::closedir(d);
  }
  for (const auto& dir : found) {
    kill_members(dir);
    remove_dir(dir);
  }
  return found.size();
}

}  // namespace jetperf::platform
