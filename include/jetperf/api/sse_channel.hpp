#pragma once
// A thread-safe queue of Server-Sent-Event frames from the domain (publisher threads) to one
// HTTP session. The API layer creates it and fills it; daemon/http drains it on its own strand.
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace jetperf::api {

class sse_channel {
 public:
  /// Formats and queues one frame ("event: E\ndata: D\n\n"); `last` ends the stream after it.
  void push(const std::string& event, const std::string& data, bool last = false);
  /// Queues a comment line (keep-alive); never ends the stream.
  void push_comment(const std::string& text);
  /// Ends the stream after the frames already queued.
  void finish();
  /// Called from any thread whenever frames arrive; the session posts to its strand from it.
  void set_notifier(std::function<void()> notify);
  /// Moves every queued frame into `out`; returns true when the stream has ended.
  bool drain(std::vector<std::string>& out);
  /// True when the consumer went away (the session calls close()); producers stop pushing.
  bool closed() const;
  void close();

 private:
  void notify_locked(std::unique_lock<std::mutex>& lock);
  mutable std::mutex mutex_;
  std::deque<std::string> frames_;
  std::function<void()> notify_;
  bool finished_ = false;
  bool closed_ = false;
};

}  // namespace jetperf::api
