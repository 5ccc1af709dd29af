#include <jetperf/common/event_hub.hpp>

#include <vector>

namespace jetperf {

event_hub::subscription& event_hub::subscription::operator=(subscription&& o) noexcept {
  if (this != &o) {
    reset();
    hub_ = o.hub_;
    id_ = o.id_;
    o.hub_ = nullptr;
  }
  return *this;
}

void event_hub::subscription::reset() {
  if (hub_) hub_->unsubscribe(id_);
  hub_ = nullptr;
}

event_hub::subscription event_hub::subscribe(const std::string& topic, handler h) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto id = next_id_++;
  entries_[id] = entry{topic, std::make_shared<handler>(std::move(h))};
  return subscription(this, id);
}

void event_hub::publish(const std::string& topic, const std::string& event, const std::string& data) {
  // Copy the handlers under the lock and call them outside it, so a handler may unsubscribe.
  std::vector<std::pair<std::uint64_t, std::shared_ptr<handler>>> targets;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [id, e] : entries_)
      if (e.topic == topic) targets.emplace_back(id, e.fn);
  }
  for (const auto& [id, fn] : targets)
    if (!(*fn)(event, data)) unsubscribe(id);
}

std::size_t event_hub::subscriber_count(const std::string& topic) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t n = 0;
  for (const auto& kv : entries_) n += kv.second.topic == topic;
  return n;
}

void event_hub::unsubscribe(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.erase(id);
}

}  // namespace jetperf
