#include "http/stream_limit.hpp"

namespace jetperf::daemon {

stream_limit::slot stream_limit::try_acquire(const std::shared_ptr<stream_limit>& self, const std::string& address,
                                             std::string* why) {
  std::lock_guard<std::mutex> lock(self->mutex_);
  if (self->open_ >= self->max_) {
    if (why) *why = "too many event streams (" + std::to_string(self->max_) + "); retry later";
    return slot();
  }
  auto& mine = self->by_address_[address];
  if (mine >= self->max_per_address_) {
    if (why) *why = "too many event streams from " + address + " (" + std::to_string(self->max_per_address_) + ")";
    return slot();
  }
  ++mine;
  ++self->open_;
  return slot(self, address);
}

std::size_t stream_limit::open() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return open_;
}

void stream_limit::release(const std::string& address) {
  std::lock_guard<std::mutex> lock(mutex_);
  --open_;
  auto it = by_address_.find(address);
  if (it != by_address_.end() && --it->second == 0) by_address_.erase(it);
}

}  // namespace jetperf::daemon
