#pragma once
// Makes a CPU workload on a simulated board run as much slower as its simulated CPU clock is
// lower: each workload thread is held to a CPU share of f / f_max of a core, by the first
// mechanism this host grants: a cgroup CPU quota per thread (cgroup_cpu_share.hpp: no
// machine-wide admission), else SCHED_DEADLINE (deadline_cpu_share.hpp). Both need root; where
// the host grants neither, or refuses a share, the simulated clock changes power only and the
// results say so (speed_not_simulated).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <jetperf/sim/cpu_share_backend.hpp>

namespace jetperf::sim {

class cpu_reservation {
 public:
  /// Picks the host's mechanism (none: unavailable() says why).
  cpu_reservation();
  /// With a given mechanism (tests), or none (nullptr, `why`).
  explicit cpu_reservation(std::unique_ptr<cpu_share_backend> backend, std::string why = {});
  ~cpu_reservation();  ///< releases every reservation
  cpu_reservation(const cpu_reservation&) = delete;
  cpu_reservation& operator=(const cpu_reservation&) = delete;

  /// Why this host grants no shares; empty when it does.
  const std::string& unavailable() const { return unavailable_; }
  /// The mechanism in use ("cgroup v1 cpu.cfs_quota_us", "SCHED_DEADLINE"), empty without one.
  std::string mechanism() const { return backend_ ? backend_->name() : std::string(); }

  /// Gives each of `tids` the share (0..1]; a share of 0.95 or more releases them (full speed).
  /// Threads reserved before and not in `tids` are released. Returns why a thread could not be
  /// reserved ("" when all were).
  std::string apply(const std::vector<int>& tids, double share);
  /// Gives every reservation again with fresh parameters, for mechanisms that need it (bounds
  /// how long a kernel that failed to replenish a throttled deadline thread can stall it; the
  /// simulator calls this every second). A thread that cannot be reserved again runs unreserved.
  void renew();
  /// The share thread `tid` ran with since the last apply (1 when not reserved).
  double share_of(int tid) const;
  void release_all();
  /// A thread of another process that may have inherited a share (a command job's program,
  /// forked by the reserved runner thread) runs at full speed, as its rows say. Any thread.
  void detach(int tid) {
    if (backend_) backend_->detach(tid);
  }

 private:
  std::unique_ptr<cpu_share_backend> backend_;
  std::string unavailable_;
  std::map<int, double> reserved_;
};

}  // namespace jetperf::sim
