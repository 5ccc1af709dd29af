#include "http/open_channels.hpp"

#include <algorithm>

namespace jetperf::daemon {

void open_channels::add(const std::shared_ptr<api::sse_channel>& channel) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Streams are few (stream_limit) and end often; dropping the dead here keeps the list short.
  channels_.erase(std::remove_if(channels_.begin(), channels_.end(),
                                 [](const std::weak_ptr<api::sse_channel>& c) { return c.expired(); }),
                  channels_.end());
  channels_.push_back(channel);
}

void open_channels::close_all() {
  std::vector<std::weak_ptr<api::sse_channel>> channels;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    channels.swap(channels_);
  }
  // Outside the lock: close() may wait for a producer inside the notifier.
  for (const auto& weak : channels)
    if (auto channel = weak.lock()) channel->close();
}

}  // namespace jetperf::daemon
