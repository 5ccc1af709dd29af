#include <jetperf/sim/cgroup_cpu_share.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <sstream>
#include <vector>

#include <jetperf/platform/cgroup_paths.hpp>
#include <jetperf/platform/sysfs_paths.hpp>

#include "file_io.hpp"

namespace jetperf::sim {
namespace {

constexpr const char* k_group_prefix = "jetperf-sim-";

// Writes `text` to a kernel file; 0 or the errno of the failure.
int write_kernel_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  const ssize_t n = ::write(fd, text.data(), text.size());
  const int err = n < 0 ? errno : (static_cast<std::size_t>(n) != text.size() ? EIO : 0);
  ::close(fd);
  return err;
}

std::string describe(const std::string& path, int err) { return path + ": " + std::strerror(err); }

// Removes a group of ours: its (empty) thread groups, then itself.
void remove_group(const std::string& group) {
  if (DIR* d = opendir(group.c_str())) {
    std::vector<std::string> subs;
    while (const dirent* e = readdir(d))
      if (e->d_name[0] == 't' && std::isdigit(static_cast<unsigned char>(e->d_name[1]))) subs.push_back(e->d_name);
    closedir(d);
    for (const auto& s : subs) ::rmdir((group + "/" + s).c_str());
  }
  ::rmdir(group.c_str());
}

// Groups left by a daemon that died without removing them (kill -9): their threads are gone, so
// they are empty and can go.
void remove_stale_groups(const std::string& own) {
  DIR* d = opendir(own.c_str());
  if (!d) return;
  std::vector<std::string> stale;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.rfind(k_group_prefix, 0) != 0) continue;
    const int pid = std::atoi(name.c_str() + std::strlen(k_group_prefix));
    if (pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH) stale.push_back(own + "/" + name);
  }
  closedir(d);
  for (const auto& g : stale) remove_group(g);
}

}  // namespace

std::optional<cpu_cgroup_location> find_cpu_cgroup(const std::string& mountinfo, const std::string& self_cgroup,
                                                   std::string* why) {
  // The process's path in each hierarchy.
  std::string v1_path, v2_path;
  bool v1_listed = false, v2_listed = false;
  for (const auto& c : platform::parse_cgroup_memberships(self_cgroup)) {
    if (platform::has_list_item(c.controllers, "cpu")) {
      v1_path = c.path;
      v1_listed = true;
    } else if (c.id == "0" && c.controllers.empty()) {
      v2_path = c.path;
      v2_listed = true;
    }
  }
  std::optional<cpu_cgroup_location> v2;
  for (const auto& m : platform::parse_cgroup_mounts(mountinfo)) {
    if (m.version == 1 && v1_listed && platform::has_list_item(m.super_options, "cpu"))
      return cpu_cgroup_location{1, platform::cgroup_dir(m, v1_path)};
    if (m.version == 2 && v2_listed && !v2) v2 = cpu_cgroup_location{2, platform::cgroup_dir(m, v2_path)};
  }
  if (v2) {
    // cgroup v2 has the cpu controller only where cgroup.controllers lists it.
    const auto controllers = detail::read_text(v2->dir + "/cgroup.controllers").value_or("");
    std::istringstream in(controllers);
    for (std::string c; in >> c;)
      if (c == "cpu") return v2;
  }
  if (why) *why = v1_listed ? "the cgroup v1 cpu controller is not mounted" : "no mounted cgroup hierarchy has the cpu controller";
  return std::nullopt;
}

cfs_quota quota_for_share(double share) {
  share = std::clamp(share, 1e-3, 1.0);
  cfs_quota q;
  // The kernel's smallest quota is 1 ms and its longest period 1 s.
  q.period_us = std::clamp(static_cast<long long>(std::ceil(1000.0 / share)), 20000LL, 1000000LL);
  q.quota_us = std::max(1000LL, std::llround(share * static_cast<double>(q.period_us)));
  return q;
}

std::unique_ptr<cgroup_cpu_share> cgroup_cpu_share::open(const cpu_cgroup_location& where, std::string* why) {
  if (where.version != 1) {
    if (why) *why = "the cpu controller is on cgroup v2 (" + where.dir + "), which jetperf does not drive yet";
    return nullptr;
  }
  remove_stale_groups(where.dir);
  const std::string group = where.dir + "/" + k_group_prefix + std::to_string(::getpid());
  if (::mkdir(group.c_str(), 0755) != 0 && errno != EEXIST) {
    if (why) *why = "cannot make a cgroup: " + describe(group, errno);
    return nullptr;
  }
  // A group we cannot give a quota to is of no use: find out now rather than per thread.
  const auto q = quota_for_share(0.5);
  if (const int err = write_kernel_file(group + "/cpu.cfs_period_us", std::to_string(q.period_us))) {
    if (why) *why = "cannot set a CPU quota: " + describe(group + "/cpu.cfs_period_us", err);
    ::rmdir(group.c_str());
    return nullptr;
  }
  return std::unique_ptr<cgroup_cpu_share>(new cgroup_cpu_share(where.dir, group));
}

std::unique_ptr<cgroup_cpu_share> cgroup_cpu_share::open_for_this_process(std::string* why) {
  const auto mountinfo = detail::read_text(platform::paths::self_mountinfo).value_or("");
  const auto self = detail::read_text(platform::paths::self_cgroup).value_or("");
  const auto where = find_cpu_cgroup(mountinfo, self, why);
  if (!where) return nullptr;
  return open(*where, why);
}

cgroup_cpu_share::~cgroup_cpu_share() {
  for (int tid : std::set<int>(held_)) release(tid);
  remove_group(group_);
}

std::string cgroup_cpu_share::thread_dir(int tid) const { return group_ + "/t" + std::to_string(tid); }

share_outcome cgroup_cpu_share::hold(int tid, double share) {
  const auto dir = thread_dir(tid);
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return share_outcome::refused("cannot make a cgroup: " + describe(dir, errno));
  const auto q = quota_for_share(share);
  // Quota off first: a new period with the old quota could be refused against the parent's.
  write_kernel_file(dir + "/cpu.cfs_quota_us", "-1");
  for (const auto& [file, value] : {std::make_pair("/cpu.cfs_period_us", q.period_us), std::make_pair("/cpu.cfs_quota_us", q.quota_us)}) {
    if (const int err = write_kernel_file(dir + file, std::to_string(value))) {
      ::rmdir(dir.c_str());
      return share_outcome::refused("cannot set a CPU quota: " + describe(dir + file, err));
    }
  }
  if (const int err = write_kernel_file(dir + "/tasks", std::to_string(tid))) {
    ::rmdir(dir.c_str());
    if (err == ESRCH) return share_outcome::gone();
    return share_outcome::refused("cannot move the thread into its cgroup: " + describe(dir + "/tasks", err));
  }
  held_.insert(tid);
  return share_outcome::held();
}

void cgroup_cpu_share::release(int tid) {
  // Back to the process's own cgroup (ESRCH: the thread is gone, and with it the group's task).
  write_kernel_file(own_ + "/tasks", std::to_string(tid));
  ::rmdir(thread_dir(tid).c_str());
  held_.erase(tid);
}

void cgroup_cpu_share::detach(int tid) {
  // A forked child starts in its parent thread's group: back to the process's own cgroup.
  write_kernel_file(own_ + "/tasks", std::to_string(tid));
}

}  // namespace jetperf::sim
