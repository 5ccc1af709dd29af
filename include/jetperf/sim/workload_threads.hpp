#pragma once
// The threads a simulated board's CPUs run: this process's threads that run a job (the runner and
// the pools its libraries start), told apart from the daemon's service threads by name
// (common/thread_name.hpp). Their own CPU clocks say how busy the simulated cores are, so the
// simulated rails follow the job whatever else the host runs. Processes a job starts (a command
// job's program) are counted too, from their threads' schedstat.
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace jetperf::sim {

struct thread_busy {
  int tid = 0;
  double busy = 0;  ///< CPU seconds per wall second since the previous sample (0..1 per thread)
  bool external = false;  ///< a thread of another process (add_process): no CPU share is given to it
  /// The CPU share the thread ran with over the sample (the simulator's, 1 where none): its busy
  /// fraction relative to it is its load, however the share changes after the sample.
  double share = 1;
};

class workload_threads {
 public:
  /// `task_dir`: the process's task directory (/proc/self/task).
  explicit workload_threads(std::string task_dir = "/proc/self/task", std::string proc_dir = "/proc");
  /// Every live workload thread with its busy fraction since the previous call (0 for threads
  /// seen for the first time). `now_ns` is CLOCK_MONOTONIC.
  std::vector<thread_busy> sample(std::int64_t now_ns);
  /// Counts the threads of process `pid` and of its descendants from the next sample on (any
  /// thread may call these).
  void add_process(int pid);
  void remove_process(int pid);

 private:
  /// Threads of the added processes and their descendants with their CPU time (ns).
  std::map<int, std::int64_t> external_threads() const;
  struct seen {
    std::string name;
    std::int64_t cpu_ns = -1;
  };
  std::string task_dir_;
  std::string proc_dir_;
  mutable std::mutex processes_mutex_;
  std::set<int> processes_;
  std::map<int, seen> threads_;
  std::int64_t last_ns_ = 0;
  unsigned samples_ = 0;
};

/// CPU time of thread `tid` of this process in ns, -1 when it is gone.
std::int64_t thread_cpu_ns(int tid);

}  // namespace jetperf::sim
