#pragma once
// Busy child processes that load the host beside a test daemon: each spins on a core of its own
// choosing until the object goes out of scope, when it is killed and reaped (by its pid only), or
// its parent dies.
#include <cstddef>
#include <vector>

#include <sys/types.h>

namespace jetperf::test {

class cpu_hogs {
 public:
  /// `count` spinning children; 0: one per online core.
  explicit cpu_hogs(std::size_t count = 0);
  ~cpu_hogs();
  cpu_hogs(const cpu_hogs&) = delete;
  cpu_hogs& operator=(const cpu_hogs&) = delete;

  std::size_t count() const { return pids_.size(); }

 private:
  std::vector<pid_t> pids_;
};

}  // namespace jetperf::test
