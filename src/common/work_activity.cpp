#include <jetperf/common/work_activity.hpp>

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include <sys/syscall.h>
#include <unistd.h>

#include <jetperf/common/clock.hpp>

namespace jetperf::activity {

namespace {

struct event {
  std::int64_t t_ns = 0;
  int source = 0;
  double macs_per_byte = -1;  ///< < 0: the source stopped working
};

// 16k events: at resnet50's 170 ops per run and a run every 100 ms, ten seconds, where a sensor
// window asks for the last 20 ms.
constexpr std::size_t k_capacity = 1u << 14;

std::atomic<int> readers{0};
std::mutex mutex;
std::vector<event> ring;  // guarded by mutex
std::size_t head = 0;     // next slot
// Each source's newest event (guarded by mutex): a source that noted nothing since a window began
// is in that state for the whole window, found without searching the ring.
std::map<int, event> newest;

int this_thread_id() {
  thread_local const int tid = static_cast<int>(::syscall(SYS_gettid));
  return tid;
}

}  // namespace

bool enabled() { return readers.load(std::memory_order_relaxed) > 0; }
void enable() { readers.fetch_add(1); }
void disable() {
  if (readers.fetch_sub(1) == 1) {
    std::lock_guard<std::mutex> lock(mutex);
    ring.clear();
    head = 0;
    newest.clear();
  }
}

void note(std::int64_t t_ns, int source, std::optional<double> macs_per_byte) {
  std::lock_guard<std::mutex> lock(mutex);
  const event e{t_ns, source, macs_per_byte ? std::max(0.0, *macs_per_byte) : -1.0};
  if (ring.size() < k_capacity) {
    ring.push_back(e);
  } else {
    ring[head] = e;
  }
  head = (head + 1) % k_capacity;
  newest[source] = e;
}

void begin_work(double macs_per_byte) {
  if (enabled()) note(monotonic_ns(), this_thread_id(), macs_per_byte);
}

void end_work() {
  if (enabled()) note(monotonic_ns(), this_thread_id(), std::nullopt);
}

namespace {

// Threads take their note's time before the lock, so the ring is in time order only within a
// source and to within the time a note waits for the lock.
constexpr std::int64_t k_order_slack_ns = 1'000'000;
// A source that stopped working this long before a window began is forgotten (threads come and
// go with jobs; the map must not grow with them).
constexpr std::int64_t k_forget_ns = 60'000'000'000;

// Calls `segment(source, from, to, macs_per_byte)` for each stretch of work within [from_ns, to_ns].
// The ring is read back from its newest event only as far as the window and each noting source's
// state when it began: the whole ring copied under the lock took 0.13 ms on an idle host and
// 0.3-0.6 ms on a loaded 2-core one, at every sensor update, holding every noting thread's next op
// that long; now about 0.4 us (tests/bench/work_activity.cpp, docs/benchmarks.md).
template <typename Segment>
void for_each_work(std::int64_t from_ns, std::int64_t to_ns, Segment segment, std::set<int>* noting = nullptr) {
  std::vector<event> events;                 // in the window, newest first
  std::map<int, std::pair<std::int64_t, double>> state;  // source -> (since, macs_per_byte) at from_ns
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (ring.empty()) return;
    if (noting)
      for (const auto& kv : newest) noting->insert(kv.first);
    std::set<int> pending;  // sources that noted since from_ns: their state before it is in the ring
    for (auto it = newest.begin(); it != newest.end();) {
      const event& e = it->second;
      if (e.t_ns >= from_ns) {
        pending.insert(e.source);
      } else if (e.macs_per_byte < 0 && e.t_ns < from_ns - k_forget_ns) {
        it = newest.erase(it);
        continue;
      } else {
        state[e.source] = {e.t_ns, e.macs_per_byte};
      }
      ++it;
    }
    const std::size_t n = ring.size();
    for (std::size_t k = 0; k < n; ++k) {
      const event& e = ring[(head + n - 1 - k) % n];
      if (e.t_ns >= from_ns) {
        if (e.t_ns < to_ns) events.push_back(e);
        continue;
      }
      if (pending.erase(e.source)) state[e.source] = {e.t_ns, e.macs_per_byte};
      if (pending.empty() && e.t_ns < from_ns - k_order_slack_ns) break;
    }
  }
  std::reverse(events.begin(), events.end());
  std::stable_sort(events.begin(), events.end(), [](const event& a, const event& b) { return a.t_ns < b.t_ns; });
  const auto close = [&](int source, const std::pair<std::int64_t, double>& s, std::int64_t until) {
    if (s.second < 0) return;
    const auto a = std::max(s.first, from_ns), b = std::min(until, to_ns);
    if (b > a) segment(source, a, b, s.second);
  };
  for (const auto& e : events) {
    auto it = state.find(e.source);
    if (it != state.end()) close(e.source, it->second, e.t_ns);
    state[e.source] = {e.t_ns, e.macs_per_byte};
  }
  for (const auto& [source, s] : state) close(source, s, to_ns);
}

}  // namespace

work_in_window work_between(std::int64_t from_ns, std::int64_t to_ns, const std::function<double(double)>& f) {
  work_in_window out;
  if (to_ns <= from_ns) return out;
  const double span = static_cast<double>(to_ns - from_ns);
  double weighted = 0, worked = 0;
  for_each_work(
      from_ns, to_ns,
      [&](int source, std::int64_t a, std::int64_t b, double macs_per_byte) {
        const double dt = static_cast<double>(b - a);
        out.shares[source] += dt / span;
        weighted += dt * f(macs_per_byte);
        worked += dt;
      },
      &out.noting);
  if (worked > 0) out.mean = weighted / worked;
  return out;
}

std::int64_t exact_since_ns() {
  std::lock_guard<std::mutex> lock(mutex);
  if (ring.size() < k_capacity) return std::numeric_limits<std::int64_t>::min();
  // The slot about to be overwritten holds the oldest note; notes land up to the order slack out
  // of time order.
  return ring[head].t_ns + k_order_slack_ns;
}

}  // namespace jetperf::activity
