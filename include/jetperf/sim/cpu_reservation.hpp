#pragma once
// Makes a CPU workload on a simulated board run as much slower as its simulated CPU clock is
// lower: each workload thread gets a CPU share of f / f_max with SCHED_DEADLINE (runtime per
// period), the host's own way to hand a thread a fixed fraction of a core. It needs
// CAP_SYS_NICE (the daemon runs as root) and a kernel that admits the total share; where the
// host refuses, the simulated clock changes power only and the results say so
// (speed_not_simulated).
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jetperf::sim {

class cpu_reservation {
 public:
  cpu_reservation() = default;
  ~cpu_reservation();  ///< releases every reservation
  cpu_reservation(const cpu_reservation&) = delete;
  cpu_reservation& operator=(const cpu_reservation&) = delete;

  /// Tries a reservation on the calling thread and takes it back: nullopt when this host allows
  /// them, otherwise why not.
  static std::optional<std::string> probe();

  /// Gives each of `tids` the share (0..1]; a share of 0.95 or more releases them (full speed:
  /// the kernel admits at most 95% of a core). Threads reserved before and not in `tids` are
  /// released. Returns why a thread could not be reserved ("" when all were).
  std::string apply(const std::vector<int>& tids, double share);
  /// Takes every reservation back and gives it again with fresh parameters: bounds how long a
  /// kernel that failed to replenish a throttled thread can stall it (the simulator calls this
  /// every second). A thread that cannot be reserved again runs unreserved.
  void renew();
  /// The share thread `tid` ran with since the last apply (1 when not reserved).
  double share_of(int tid) const;
  void release_all();

 private:
  std::map<int, double> reserved_;
};

}  // namespace jetperf::sim
