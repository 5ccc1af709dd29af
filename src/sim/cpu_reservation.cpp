#include <jetperf/sim/cpu_reservation.hpp>

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <set>

namespace jetperf::sim {
namespace {

// Not in glibc's headers before 2.41: the kernel's struct sched_attr (include/uapi/linux/sched/types.h).
struct sched_attr {
  std::uint32_t size;
  std::uint32_t sched_policy;
  std::uint64_t sched_flags;
  std::int32_t sched_nice;
  std::uint32_t sched_priority;
  std::uint64_t sched_runtime;
  std::uint64_t sched_deadline;
  std::uint64_t sched_period;
};

constexpr std::uint32_t sched_other = 0;
constexpr std::uint32_t sched_deadline = 6;
// A reserved thread may still fork (nvpmodel) and start threads: children run unreserved.
constexpr std::uint64_t reset_on_fork = 1;
// Short enough that a millisecond kernel sees its share within its own run, long enough to keep
// the scheduler's overhead small.
constexpr std::uint64_t period_ns = 4'000'000;
constexpr double full_share = 0.95;

int set_attr(int tid, const sched_attr& a) {
  return static_cast<int>(syscall(SYS_sched_setattr, tid, &a, 0u));
}

int reserve(int tid, double share) {
  sched_attr a{};
  a.size = sizeof a;
  a.sched_policy = sched_deadline;
  a.sched_flags = reset_on_fork;
  a.sched_runtime = std::max<std::uint64_t>(static_cast<std::uint64_t>(share * period_ns), 1024);
  a.sched_deadline = period_ns;
  a.sched_period = period_ns;
  return set_attr(tid, a);
}

void release(int tid) {
  sched_attr a{};
  a.size = sizeof a;
  a.sched_policy = sched_other;
  set_attr(tid, a);  // a thread that is gone needs nothing
}

std::string why(int err) {
  if (err == EPERM) return "SCHED_DEADLINE is not permitted (needs CAP_SYS_NICE)";
  if (err == EBUSY) return "SCHED_DEADLINE admission refused the share (the host's deadline bandwidth is taken by other reserved threads)";
  if (err == ENOSYS || err == EINVAL) return std::string("SCHED_DEADLINE is not available: ") + std::strerror(err);
  return std::string("SCHED_DEADLINE failed: ") + std::strerror(err);
}

}  // namespace

cpu_reservation::~cpu_reservation() { release_all(); }

std::optional<std::string> cpu_reservation::probe() {
  if (reserve(0, 0.05) != 0) return why(errno);
  release(0);
  return std::nullopt;
}

std::string cpu_reservation::apply(const std::vector<int>& tids, double share) {
  const std::set<int> wanted(tids.begin(), tids.end());
  for (auto it = reserved_.begin(); it != reserved_.end();) {
    if (share >= full_share || !wanted.count(it->first)) {
      release(it->first);
      it = reserved_.erase(it);
    } else {
      ++it;
    }
  }
  if (share >= full_share) return {};
  std::string failure;
  for (int tid : wanted) {
    auto it = reserved_.find(tid);
    if (it != reserved_.end() && it->second == share) continue;
    // A new share goes through the fair class: changing a throttled task's deadline parameters
    // in place can leave it throttled with a deadline in the past, never replenished (seen on
    // 6.18: a runner stuck runnable for minutes).
    if (it != reserved_.end()) release(tid);
    if (reserve(tid, share) == 0) {
      reserved_[tid] = share;
    } else if (errno != ESRCH) {
      failure = why(errno);
      release(tid);
      reserved_.erase(tid);
    }
  }
  return failure;
}

void cpu_reservation::renew() {
  for (auto it = reserved_.begin(); it != reserved_.end();) {
    release(it->first);
    if (reserve(it->first, it->second) == 0) {
      ++it;
    } else {
      it = reserved_.erase(it);
    }
  }
}

double cpu_reservation::share_of(int tid) const {
  auto it = reserved_.find(tid);
  return it == reserved_.end() ? 1.0 : it->second;
}

void cpu_reservation::release_all() {
  for (const auto& r : reserved_) release(r.first);
  reserved_.clear();
}

}  // namespace jetperf::sim
