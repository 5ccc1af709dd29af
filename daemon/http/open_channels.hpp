#pragma once
// The SSE channels of a server's open event streams. Producer threads (the telemetry feed, the
// job runner) post into the io_context through a channel's notifier; the server closes every
// channel here, which waits out a notifier call under way, before it destroys that io_context.
#include <memory>
#include <mutex>
#include <vector>

#include <jetperf/api/sse_channel.hpp>

namespace jetperf::daemon {

class open_channels {
 public:
  /// Remembers the channel of a stream that is starting (forgets those already gone).
  void add(const std::shared_ptr<api::sse_channel>& channel);
  /// Closes every channel still alive: no producer posts through them once this returns.
  void close_all();

 private:
  std::mutex mutex_;
  std::vector<std::weak_ptr<api::sse_channel>> channels_;
};

}  // namespace jetperf::daemon
