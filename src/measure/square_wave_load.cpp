#include <jetperf/measure/square_wave_load.hpp>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/thread_name.hpp>
#include <jetperf/common/work_activity.hpp>

namespace jetperf::measure {
namespace {

// A plain loop of integer arithmetic: one core fully busy, nothing else (no memory traffic).
constexpr double k_spin_macs_per_byte = 1.0;
// Waits wake this often to see a cancel.
constexpr std::int64_t k_poll_ns = 2'000'000;

void wait_until(std::int64_t deadline_ns, const std::function<bool()>& cancelled) {
  for (std::int64_t now = monotonic_ns(); now < deadline_ns && !cancelled(); now = monotonic_ns())
    std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(k_poll_ns, deadline_ns - now)));
}

// What the load threads follow: busy or not, and done. An idle thread sleeps until the next
// change: one that polled (every 20 us, as it once did) kept a core a tenth busy through every
// idle half, which a board's idle level shows and which a simulated board counted as load in the
// idle halves only (it takes a thread's noted work in place of its CPU time where it noted any),
// so each rising edge first dipped and the fitted lag grew by several milliseconds.
struct wave_state {
  std::mutex mutex;
  std::condition_variable changed;
  std::atomic<bool> busy{false};
  std::atomic<bool> done{false};
  std::string failed;  ///< a device step's reason (under mutex)

  void set(bool is_busy, bool is_done) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      busy = is_busy;
      // Once done, done: a failed device step's end is not undone by the schedule's next edge.
      if (is_done) done = true;
    }
    changed.notify_all();
  }
};

// One stretch of the busy half's work: a device step, or a short spin on this thread's core.
bool busy_step(const square_wave_plan& plan, volatile std::uint64_t& x, std::string* why) {
  if (plan.device_step) return plan.device_step(why);
  for (int i = 0; i < 1000; ++i) x = x + static_cast<std::uint64_t>(i);
  return true;
}

// One load thread: busy while the wave says so, until it is done. The first notes each edge as
// it crosses it (the moment its own work began or ended, which is the load's edge). A failed
// device step ends the wave: its reason is kept and the thread stops.
void load_thread(const square_wave_plan& plan, wave_state& wave, std::vector<stats::load_edge>* edges) {
  // A job's thread by name (common/thread_name.hpp): a simulated board's cores run it.
  name_this_thread("jp-runner-load");
  // The lowest priority: on an idle board its core is as busy, and the sampler (and a simulated
  // board's own thread) never wait for it.
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 19);
  bool working = false;
  volatile std::uint64_t x = 0;
  while (!wave.done.load(std::memory_order_relaxed)) {
    const bool want = wave.busy.load(std::memory_order_relaxed);
    if (want != working) {
      if (!plan.device_step) {
        if (want) activity::begin_work(k_spin_macs_per_byte);
        else activity::end_work();
      }
      if (edges) edges->push_back({monotonic_ns(), want});
      working = want;
    }
    if (working) {
      std::string why;
      if (!busy_step(plan, x, &why)) {
        std::lock_guard<std::mutex> lock(wave.mutex);
        wave.failed = why.empty() ? "the load's device step failed" : why;
        wave.done = true;
        break;
      }
    } else {
      std::unique_lock<std::mutex> lock(wave.mutex);
      wave.changed.wait(lock, [&wave] { return wave.busy.load() || wave.done.load(); });
    }
  }
  if (working) {
    if (!plan.device_step) activity::end_work();
    if (edges) edges->push_back({monotonic_ns(), false});
  }
}

}  // namespace

std::vector<stats::load_edge> run_square_wave(const square_wave_plan& plan, const std::function<bool()>& cancelled) {
  wave_state wave;
  std::vector<stats::load_edge> edges;
  std::vector<std::thread> threads;
  const int count = plan.device_step ? 1 : std::max(plan.threads, 1);
  for (int i = 0; i < count; ++i)
    threads.emplace_back([&, i] { load_thread(plan, wave, i == 0 ? &edges : nullptr); });
  // A failed device step stops the wave as a cancel does.
  const auto stop = [&] { return wave.done.load() || cancelled(); };
  const auto half_ns = static_cast<std::int64_t>(plan.half_period_s * 1e9);
  const auto start = monotonic_ns() + static_cast<std::int64_t>(plan.lead_s * 1e9);
  wait_until(start, stop);
  for (int k = 0; k < plan.edges && !stop(); ++k) {
    wave.set(k % 2 == 0, false);
    wait_until(start + (k + 1) * half_ns, stop);
  }
  wave.set(false, false);
  // One idle half after the last edge: the readings settle at the idle level.
  wait_until(monotonic_ns() + half_ns, stop);
  wave.set(false, true);
  for (auto& t : threads) t.join();
  if (!wave.failed.empty()) throw std::runtime_error(wave.failed);
  return edges;
}

}  // namespace jetperf::measure
