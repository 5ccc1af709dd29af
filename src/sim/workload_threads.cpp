#include <jetperf/sim/workload_threads.hpp>

#include <dirent.h>
#include <time.h>

#include <cstdlib>
#include <set>

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

namespace {

// A process's descendants are found through each thread's children file; this many at most, so
// that a fork bomb cannot make each simulator step unbounded.
constexpr std::size_t k_max_external_processes = 256;

std::vector<int> numbers_in(const std::string& text) {
  std::vector<int> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] < '0' || text[i] > '9')) ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
    if (j > i) out.push_back(std::atoi(text.substr(i, j - i).c_str()));
    i = j;
  }
  return out;
}

std::vector<int> tids_of(const std::string& task_dir) {
  std::vector<int> out;
  DIR* dir = opendir(task_dir.c_str());
  if (!dir) return out;
  while (const dirent* e = readdir(dir)) {
    const int tid = std::atoi(e->d_name);
    if (tid > 0) out.push_back(tid);
  }
  closedir(dir);
  return out;
}

}  // namespace

workload_threads::workload_threads(std::string task_dir, std::string proc_dir)
    : task_dir_(std::move(task_dir)), proc_dir_(std::move(proc_dir)) {}

void workload_threads::add_process(int pid) {
  std::lock_guard<std::mutex> lock(processes_mutex_);
  processes_.insert(pid);
}

void workload_threads::remove_process(int pid) {
  std::lock_guard<std::mutex> lock(processes_mutex_);
  processes_.erase(pid);
}

std::map<int, std::int64_t> workload_threads::external_threads() const {
  std::vector<int> todo;
  {
    std::lock_guard<std::mutex> lock(processes_mutex_);
    todo.assign(processes_.begin(), processes_.end());
  }
  std::map<int, std::int64_t> out;
  std::set<int> visited;
  while (!todo.empty() && visited.size() < k_max_external_processes) {
    const int pid = todo.back();
    todo.pop_back();
    if (!visited.insert(pid).second) continue;
    const auto task = proc_dir_ + "/" + std::to_string(pid) + "/task";
    for (int tid : tids_of(task)) {
      const auto base = task + "/" + std::to_string(tid);
      // schedstat's first field: time on a CPU in ns (the thread CPU clock of another process
      // cannot be read with clock_gettime).
      const auto stat = detail::read_text(base + "/schedstat").value_or("");
      if (!stat.empty() && stat[0] >= '0' && stat[0] <= '9') out[tid] = std::atoll(stat.c_str());
      for (int child : numbers_in(detail::read_text(base + "/children").value_or(""))) todo.push_back(child);
    }
  }
  return out;
}

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
  for (const auto& kv : external_threads()) {
    auto it = threads_.find(kv.first);
    seen s;
    if (it != threads_.end()) s = it->second;
    const std::int64_t before = s.cpu_ns;
    s.cpu_ns = kv.second;
    double busy = 0;
    if (before >= 0 && kv.second >= before && wall_ns > 0) busy = static_cast<double>(kv.second - before) / wall_ns;
    out.push_back({kv.first, busy, true});
    live.emplace(kv.first, std::move(s));
  }
  threads_ = std::move(live);
  return out;
}

}  // namespace jetperf::sim
