#include <jetperf/sim/workload_threads.hpp>

#include <dirent.h>
#include <time.h>

#include <cstdlib>

#include <jetperf/common/thread_name.hpp>

#include "file_io.hpp"

namespace jetperf::sim {

std::int64_t thread_cpu_ns(int tid) {
  // The kernel's per-thread CPU clock of any thread of this process (what glibc's
  // pthread_getcpuclockid builds for its own threads): MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED).
  const clockid_t id = static_cast<clockid_t>((~static_cast<unsigned>(tid) << 3) | 6u);
  timespec ts{};
  if (clock_gettime(id, &ts) != 0) return -1;
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

workload_threads::workload_threads(std::string task_dir) : task_dir_(std::move(task_dir)) {}

std::vector<thread_busy> workload_threads::sample(std::int64_t now_ns) {
  const double wall_ns = last_ns_ > 0 ? static_cast<double>(now_ns - last_ns_) : 0.0;
  last_ns_ = now_ns;
  std::map<int, seen> live;
  const bool refresh = ++samples_ % 25 == 0;
  std::vector<thread_busy> out;
  DIR* dir = opendir(task_dir_.c_str());
  if (!dir) return out;
  while (const dirent* e = readdir(dir)) {
    const int tid = std::atoi(e->d_name);
    if (tid <= 0) continue;
    auto it = threads_.find(tid);
    seen s;
    // Names are re-read now and then, not every 20 ms: a new thread names itself just after it
    // starts, with its creator's name until then.
    if (it != threads_.end()) s = it->second;
    if (it == threads_.end() || refresh) {
      auto comm = detail::read_text(task_dir_ + "/" + e->d_name + "/comm").value_or("");
      while (!comm.empty() && comm.back() == '\n') comm.pop_back();
      s.name = comm;
    }
    const std::int64_t cpu = thread_cpu_ns(tid);
    if (cpu < 0) continue;
    const std::int64_t before = s.cpu_ns;
    s.cpu_ns = cpu;
    if (!is_service_thread(s.name)) {
      double busy = 0;
      // A reused tid reads a smaller clock: that thread is new.
      if (before >= 0 && cpu >= before && wall_ns > 0) busy = static_cast<double>(cpu - before) / wall_ns;
      out.push_back({tid, busy});
    }
    live.emplace(tid, std::move(s));
  }
  closedir(dir);
  threads_ = std::move(live);
  return out;
}

}  // namespace jetperf::sim
