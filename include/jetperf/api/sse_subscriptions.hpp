#pragma once
// Keeps event_hub subscriptions of SSE streams alive while their channel is open. A stream's
// handler also ends itself (returns false) once its channel is gone, closed or ended; the
// entries left behind are swept whenever a new stream starts and when the router goes away.
// The event_hub must outlive this object.
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include <jetperf/api/sse_channel.hpp>
#include <jetperf/common/event_hub.hpp>

namespace jetperf::api {

class sse_subscriptions {
 public:
  /// `ended` is set by the stream's handler after its last frame.
  void keep(std::weak_ptr<sse_channel> channel, std::shared_ptr<std::atomic<bool>> ended,
            event_hub::subscription subscription);
  /// Drops the subscriptions whose stream is over; returns how many remain.
  std::size_t sweep();
  std::size_t size() const;

 private:
  struct entry {
    std::weak_ptr<sse_channel> channel;
    std::shared_ptr<std::atomic<bool>> ended;
    event_hub::subscription subscription;
  };
  mutable std::mutex mutex_;
  std::vector<entry> entries_;
};

}  // namespace jetperf::api
