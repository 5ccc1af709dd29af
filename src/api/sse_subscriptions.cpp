#include <jetperf/api/sse_subscriptions.hpp>

namespace jetperf::api {

namespace {
template <typename Entry>
bool over(const Entry& e) {
  auto channel = e.channel.lock();
  return !channel || channel->closed() || e.ended->load();
}
}  // namespace

void sse_subscriptions::keep(std::weak_ptr<sse_channel> channel, std::shared_ptr<std::atomic<bool>> ended,
                             event_hub::subscription subscription) {
  sweep();
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.push_back(entry{std::move(channel), std::move(ended), std::move(subscription)});
}

std::size_t sse_subscriptions::sweep() {
  std::vector<entry> done;
  std::size_t remaining = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<entry> keep;
    for (auto& e : entries_) (over(e) ? done : keep).push_back(std::move(e));
    entries_ = std::move(keep);
    remaining = entries_.size();
  }
  // The subscriptions end here, outside our lock, since unsubscribing takes the hub's lock.
  done.clear();
  return remaining;
}

std::size_t sse_subscriptions::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

}  // namespace jetperf::api
