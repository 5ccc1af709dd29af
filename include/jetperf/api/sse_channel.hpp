#pragma once
// A thread-safe queue of Server-Sent-Event frames from the domain (publisher threads) to one
// HTTP session. The API layer creates it and fills it; daemon/http drains it on its own strand.
// It holds at most a bound of bytes for a client that reads slowly: the oldest droppable frames
// (periodic telemetry) go first; when frames that must not be dropped (a job's own events)
// exceed it, the channel overflows and the session ends the stream.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace jetperf::api {

class sse_channel {
 public:
  /// Formats and queues one frame ("event: E\ndata: D\n\n"); `last` ends the stream after it;
  /// `droppable` frames may be dropped, oldest first, to keep within the bound.
  void push(const std::string& event, const std::string& data, bool last = false, bool droppable = false);
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
  /// Drops the queue and the notifier; returns only once no notifier call is under way, so the
  /// consumer may destroy what the notifier uses (the session's io_context) right after. Must
  /// not be called from inside the notifier.
  void close();
  /// Bytes the queue may hold (0: no bound).
  void set_limit(std::size_t max_bytes);
  /// Frames that may not be dropped exceeded the bound: the consumer ends the stream.
  bool overflowed() const;
  /// Bytes queued now, and droppable frames dropped so far.
  std::size_t queued_bytes() const;
  std::size_t dropped() const;

 private:
  struct frame {
    std::string text;
    bool droppable = false;
  };
  void enqueue_locked(std::string text, bool droppable);
  void notify_locked(std::unique_lock<std::mutex>& lock);
  mutable std::mutex mutex_;
  std::deque<frame> frames_;
  std::size_t bytes_ = 0, limit_ = 0, dropped_ = 0;
  bool overflowed_ = false;
  std::function<void()> notify_;
  int notifying_ = 0;  ///< notifier calls under way (made outside the lock)
  std::condition_variable notified_;
  bool finished_ = false;
  bool closed_ = false;
};

}  // namespace jetperf::api
