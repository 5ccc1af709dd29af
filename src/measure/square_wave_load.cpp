#include <jetperf/measure/square_wave_load.hpp>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/thread_name.hpp>
#include <jetperf/common/work_activity.hpp>

namespace jetperf::measure {
namespace {

// A plain loop of integer arithmetic: one core fully busy, nothing else (no memory traffic).
constexpr double k_spin_macs_per_byte = 1.0;
// Waits wake this often to see a cancel, and an idle load thread to see its next busy half.
constexpr std::int64_t k_poll_ns = 2'000'000;
constexpr auto k_idle_poll = std::chrono::microseconds(20);

void wait_until(std::int64_t deadline_ns, const std::function<bool()>& cancelled) {
  for (std::int64_t now = monotonic_ns(); now < deadline_ns && !cancelled(); now = monotonic_ns())
    std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(k_poll_ns, deadline_ns - now)));
}

// One load thread: busy while `busy` says so, until `done`. The first notes each edge as it
// crosses it (the moment its own work began or ended, which is the load's edge).
void load_thread(const std::atomic<bool>& busy, const std::atomic<bool>& done, std::vector<load_edge>* edges) {
  // A job's thread by name (common/thread_name.hpp): a simulated board's cores run it.
  name_this_thread("jp-runner-load");
  // The lowest priority: on an idle board its core is as busy, and the sampler (and a simulated
  // board's own thread) never wait for it.
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 19);
  bool working = false;
  volatile std::uint64_t x = 0;
  while (!done.load(std::memory_order_relaxed)) {
    const bool want = busy.load(std::memory_order_relaxed);
    if (want != working) {
      if (want) activity::begin_work(k_spin_macs_per_byte);
      else activity::end_work();
      if (edges) edges->push_back({monotonic_ns(), want});
      working = want;
    }
    if (working) {
      for (int i = 0; i < 1000; ++i) x = x + static_cast<std::uint64_t>(i);
    } else {
      std::this_thread::sleep_for(k_idle_poll);
    }
  }
  if (working) {
    activity::end_work();
    if (edges) edges->push_back({monotonic_ns(), false});
  }
}

}  // namespace

std::vector<load_edge> run_square_wave(const square_wave_plan& plan, const std::function<bool()>& cancelled) {
  std::atomic<bool> busy{false}, done{false};
  std::vector<load_edge> edges;
  std::vector<std::thread> threads;
  for (int i = 0; i < std::max(plan.threads, 1); ++i)
    threads.emplace_back([&, i] { load_thread(busy, done, i == 0 ? &edges : nullptr); });
  const auto half_ns = static_cast<std::int64_t>(plan.half_period_s * 1e9);
  const auto start = monotonic_ns() + static_cast<std::int64_t>(plan.lead_s * 1e9);
  wait_until(start, cancelled);
  for (int k = 0; k < plan.edges && !cancelled(); ++k) {
    busy = k % 2 == 0;
    wait_until(start + (k + 1) * half_ns, cancelled);
  }
  busy = false;
  // One idle half after the last edge: the readings settle at the idle level.
  wait_until(monotonic_ns() + half_ns, cancelled);
  done = true;
  for (auto& t : threads) t.join();
  return edges;
}

}  // namespace jetperf::measure
