#include <jetperf/common/work_activity.hpp>

#include <atomic>
#include <map>
#include <mutex>
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
}

void begin_work(double macs_per_byte) {
  if (enabled()) note(monotonic_ns(), this_thread_id(), macs_per_byte);
}

void end_work() {
  if (enabled()) note(monotonic_ns(), this_thread_id(), std::nullopt);
}

namespace {

// Calls `segment(source, from, to, macs_per_byte)` for each stretch of work within [from_ns, to_ns].
template <typename Segment>
void for_each_work(std::int64_t from_ns, std::int64_t to_ns, Segment segment) {
  std::vector<event> events;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (ring.empty()) return;
    events.reserve(ring.size());
    // Oldest first: from head when the ring has wrapped.
    const std::size_t start = ring.size() < k_capacity ? 0 : head;
    for (std::size_t i = 0; i < ring.size(); ++i) {
      const auto& e = ring[(start + i) % ring.size()];
      if (e.t_ns < to_ns) events.push_back(e);
    }
  }
  std::map<int, std::pair<std::int64_t, double>> state;  // source -> (since, macs_per_byte)
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
  for_each_work(from_ns, to_ns, [&](int source, std::int64_t a, std::int64_t b, double macs_per_byte) {
    const double dt = static_cast<double>(b - a);
    out.shares[source] += dt / span;
    weighted += dt * f(macs_per_byte);
    worked += dt;
  });
  if (worked > 0) out.mean = weighted / worked;
  return out;
}

}  // namespace jetperf::activity
