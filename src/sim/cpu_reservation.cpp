#include <jetperf/sim/cpu_reservation.hpp>

#include <set>

#include <jetperf/sim/cgroup_cpu_share.hpp>
#include <jetperf/sim/deadline_cpu_share.hpp>

namespace jetperf::sim {
namespace {

// SCHED_DEADLINE admits at most 95% of a core; at or above it the thread may as well run free.
constexpr double full_share = 0.95;

}  // namespace

cpu_reservation::cpu_reservation() {
  // A quota per thread first: SCHED_DEADLINE's admission is machine-wide, and on a small
  // machine the kernel's own servers and other processes can leave too little for a job's threads.
  std::string cgroup_why;
  if (auto cg = cgroup_cpu_share::open_for_this_process(&cgroup_why)) {
    backend_ = std::move(cg);
    return;
  }
  if (auto refused = deadline_cpu_share::probe()) {
    unavailable_ = "no cgroup CPU quota (" + cgroup_why + ") and " + *refused;
    return;
  }
  backend_ = std::make_unique<deadline_cpu_share>();
}

cpu_reservation::cpu_reservation(std::unique_ptr<cpu_share_backend> backend, std::string why)
    : backend_(std::move(backend)), unavailable_(backend_ ? std::string() : std::move(why)) {}

cpu_reservation::~cpu_reservation() { release_all(); }

std::string cpu_reservation::apply(const std::vector<int>& tids, double share) {
  const std::set<int> wanted(tids.begin(), tids.end());
  for (auto it = reserved_.begin(); it != reserved_.end();) {
    if (share >= full_share || !wanted.count(it->first)) {
      if (backend_) backend_->release(it->first);
      it = reserved_.erase(it);
    } else {
      ++it;
    }
  }
  if (share >= full_share) return {};
  if (!backend_) return wanted.empty() ? std::string() : unavailable_;
  std::string failure;
  for (int tid : wanted) {
    auto it = reserved_.find(tid);
    if (it != reserved_.end() && it->second == share) continue;
    const auto outcome = backend_->hold(tid, share);
    if (outcome.result == share_outcome::kind::held) {
      reserved_[tid] = share;
    } else {
      reserved_.erase(tid);
      if (outcome.result == share_outcome::kind::refused) failure = outcome.reason;
    }
  }
  return failure;
}

void cpu_reservation::renew() {
  if (!backend_ || !backend_->needs_renewal()) return;
  for (auto it = reserved_.begin(); it != reserved_.end();) {
    if (backend_->hold(it->first, it->second).result == share_outcome::kind::held) {
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
  if (backend_)
    for (const auto& r : reserved_) backend_->release(r.first);
  reserved_.clear();
}

}  // namespace jetperf::sim
