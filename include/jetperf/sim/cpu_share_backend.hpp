#pragma once
// One way the host can hold a thread to a fraction of a core: a cgroup CPU quota of its own
// (cgroup_cpu_share.hpp) or a SCHED_DEADLINE reservation (deadline_cpu_share.hpp). The
// simulator's cpu_reservation picks the first one this host grants.
#include <string>

namespace jetperf::sim {

struct share_outcome {
  enum class kind { held, gone, refused };
  kind result = kind::held;
  std::string reason;  ///< why not, when refused

  static share_outcome held() { return {}; }
  static share_outcome gone() { return {kind::gone, {}}; }
  static share_outcome refused(std::string why) { return {kind::refused, std::move(why)}; }
};

class cpu_share_backend {
 public:
  virtual ~cpu_share_backend() = default;
  /// What provenance calls the mechanism ("cgroup v1 cpu.cfs_quota_us", "SCHED_DEADLINE").
  virtual std::string name() const = 0;
  /// Holds thread `tid` (of this process) to `share` (0..1) of one core, replacing any share it
  /// had; `gone` when the thread has exited.
  virtual share_outcome hold(int tid, double share) = 0;
  /// Lets `tid` run at full speed again (nothing to do for a thread that is gone).
  virtual void release(int tid) = 0;
  /// Lets `tid`, which was never given a share but may have inherited one (a process forked by
  /// a held thread), run at full speed. Safe from any thread: it touches no bookkeeping.
  virtual void detach(int tid) {}
  /// Whether holds must be given again now and then (a kernel that can stall a throttled
  /// deadline task): cpu_reservation::renew() does it for those that say so.
  virtual bool needs_renewal() const { return false; }
};

}  // namespace jetperf::sim
