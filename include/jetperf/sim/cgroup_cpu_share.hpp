#pragma once
// Holds a thread to a fraction of a core with a CFS bandwidth quota of its own: each held
// thread moves into a cgroup of this process (<own cgroup>/jetperf-sim-<pid>/t<tid>) whose quota
// per period is the share. Unlike SCHED_DEADLINE there is no machine-wide admission: every
// thread gets its share however many there are and whatever else the host reserves. Needs the
// cgroup v1 cpu controller mounted and writable (root); a cgroup v2 host is answered with the
// reason and the simulator falls back to SCHED_DEADLINE.
#include <memory>
#include <optional>
#include <set>
#include <string>

#include <jetperf/sim/cpu_share_backend.hpp>

namespace jetperf::sim {

/// Where this process's CPU cgroup is.
struct cpu_cgroup_location {
  int version = 0;      ///< 1 or 2
  std::string dir;      ///< the process's own cgroup directory in the hierarchy with the cpu controller
};

/// From the text of /proc/self/mountinfo and /proc/self/cgroup; nullopt (and `why`) when no
/// mounted hierarchy has the cpu controller.
std::optional<cpu_cgroup_location> find_cpu_cgroup(const std::string& mountinfo, const std::string& self_cgroup,
                                                   std::string* why);

/// The CFS period and quota (microseconds) that give `share` of a core: 20 ms periods, longer
/// when the kernel's 1 ms minimum quota needs them for a small share (at most 1 s).
struct cfs_quota {
  long long period_us = 0, quota_us = 0;
};
cfs_quota quota_for_share(double share);

class cgroup_cpu_share final : public cpu_share_backend {
 public:
  /// This process's group under its own cpu cgroup (made now; stale groups of processes that
  /// are gone are removed), or nullptr and `why`.
  static std::unique_ptr<cgroup_cpu_share> open(const cpu_cgroup_location& where, std::string* why);
  /// The same, finding the cgroup from /proc/self.
  static std::unique_ptr<cgroup_cpu_share> open_for_this_process(std::string* why);
  ~cgroup_cpu_share() override;  ///< every thread back in the process's own cgroup, groups removed
  cgroup_cpu_share(const cgroup_cpu_share&) = delete;
  cgroup_cpu_share& operator=(const cgroup_cpu_share&) = delete;

  std::string name() const override { return "cgroup v1 cpu.cfs_quota_us"; }
  share_outcome hold(int tid, double share) override;
  void release(int tid) override;
  void detach(int tid) override;
  /// This process's group directory (tests look inside).
  const std::string& group_dir() const { return group_; }

 private:
  cgroup_cpu_share(std::string own, std::string group) : own_(std::move(own)), group_(std::move(group)) {}
  std::string thread_dir(int tid) const;

  std::string own_;    ///< the process's own cgroup: where released threads go back to
  std::string group_;  ///< own_/jetperf-sim-<pid>
  std::set<int> held_;
};

}  // namespace jetperf::sim
