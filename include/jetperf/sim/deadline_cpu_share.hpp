#pragma once
// Holds a thread to a fraction of a core with SCHED_DEADLINE (runtime per 4 ms period). Needs
// CAP_SYS_NICE, and the kernel admits a share only while the machine's total deadline bandwidth
// (95% of each CPU, shared with every other deadline task and the kernel's own servers) has room.
#include <optional>
#include <string>

#include <jetperf/sim/cpu_share_backend.hpp>

namespace jetperf::sim {

class deadline_cpu_share final : public cpu_share_backend {
 public:
  /// Tries a small reservation on the calling thread and takes it back: nullopt when this host
  /// grants them, otherwise why not.
  static std::optional<std::string> probe();

  std::string name() const override { return "SCHED_DEADLINE"; }
  share_outcome hold(int tid, double share) override;
  void release(int tid) override;
  /// Changing a throttled deadline task's parameters in place can leave it stalled (seen on
  /// 6.18), so holds are given again now and then.
  bool needs_renewal() const override { return true; }
};

}  // namespace jetperf::sim
