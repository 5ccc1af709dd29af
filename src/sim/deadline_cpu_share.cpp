#include <jetperf/sim/deadline_cpu_share.hpp>

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

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

int set_attr(int tid, const sched_attr& a) { return static_cast<int>(syscall(SYS_sched_setattr, tid, &a, 0u)); }

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

void to_fair_class(int tid) {
  sched_attr a{};
  a.size = sizeof a;
  a.sched_policy = sched_other;
  set_attr(tid, a);  // a thread that is gone needs nothing
}

std::string why(int err) {
  if (err == EPERM) return "SCHED_DEADLINE is not permitted (needs CAP_SYS_NICE)";
  if (err == EBUSY)
    return "SCHED_DEADLINE admission refused the share (the machine's deadline bandwidth is taken by other "
           "reserved threads or the kernel's own servers)";
  if (err == ENOSYS || err == EINVAL) return std::string("SCHED_DEADLINE is not available: ") + std::strerror(err);
  return std::string("SCHED_DEADLINE failed: ") + std::strerror(err);
}

}  // namespace

std::optional<std::string> deadline_cpu_share::probe() {
  if (reserve(0, 0.05) != 0) return why(errno);
  to_fair_class(0);
  return std::nullopt;
}

share_outcome deadline_cpu_share::hold(int tid, double share) {
  // A new share goes through the fair class: changing a throttled task's deadline parameters
  // in place can leave it throttled with a deadline in the past, never replenished (seen on
  // 6.18: a runner stuck runnable for minutes).
  to_fair_class(tid);
  if (reserve(tid, share) == 0) return share_outcome::held();
  const int err = errno;
  if (err == ESRCH) return share_outcome::gone();
  to_fair_class(tid);
  return share_outcome::refused(why(err));
}

void deadline_cpu_share::release(int tid) { to_fair_class(tid); }

}  // namespace jetperf::sim
