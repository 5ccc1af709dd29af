#include <jetperf/api/sse_channel.hpp>

namespace jetperf::api {

void sse_channel::push(const std::string& event, const std::string& data, bool last, bool droppable) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (closed_ || finished_ || overflowed_) return;
  std::string frame;
  frame.reserve(event.size() + data.size() + 16);
  frame += "event: ";
  frame += event;
  frame += "\ndata: ";
  // SSE data may not contain raw newlines: each line needs its own "data:" prefix.
  for (char c : data) {
    if (c == '\n')
      frame += "\ndata: ";
    else
      frame += c;
  }
  frame += "\n\n";
  enqueue_locked(std::move(frame), droppable && !last);
  if (last) finished_ = true;
  notify_locked(lock);
}

void sse_channel::push_comment(const std::string& text) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (closed_ || finished_ || overflowed_) return;
  enqueue_locked(": " + text + "\n\n", true);
  notify_locked(lock);
}

void sse_channel::finish() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  notify_locked(lock);
}

void sse_channel::set_notifier(std::function<void()> notify) {
  std::unique_lock<std::mutex> lock(mutex_);
  notify_ = std::move(notify);
  if (!frames_.empty() || finished_ || overflowed_) notify_locked(lock);
}

bool sse_channel::drain(std::vector<std::string>& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  while (!frames_.empty()) {
    out.push_back(std::move(frames_.front().text));
    frames_.pop_front();
  }
  bytes_ = 0;
  return finished_;
}

bool sse_channel::closed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return closed_;
}

void sse_channel::close() {
  std::unique_lock<std::mutex> lock(mutex_);
  closed_ = true;
  frames_.clear();
  bytes_ = 0;
  notify_ = nullptr;
  // A producer may be inside the notifier, posting into the session's io_context: the session
  // (or the server stopping) destroys that io_context once this returns.
  notified_.wait(lock, [this] { return notifying_ == 0; });
}

void sse_channel::set_limit(std::size_t max_bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  limit_ = max_bytes;
}

bool sse_channel::overflowed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return overflowed_;
}

std::size_t sse_channel::queued_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

std::size_t sse_channel::dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

void sse_channel::enqueue_locked(std::string text, bool droppable) {
  bytes_ += text.size();
  frames_.push_back({std::move(text), droppable});
  if (limit_ == 0) return;
  // Oldest droppable frames first; the newest telemetry is what a slow reader wants to see.
  for (auto it = frames_.begin(); bytes_ > limit_ && it != frames_.end();) {
    if (!it->droppable) {
      ++it;
      continue;
    }
    bytes_ -= it->text.size();
    it = frames_.erase(it);
    ++dropped_;
  }
  if (bytes_ > limit_) {
    // Only frames that must not be lost are left and they do not fit: the stream ends (the
    // client can reconnect and read the job's state and stored events).
    overflowed_ = true;
    frames_.clear();
    bytes_ = 0;
  }
}

void sse_channel::notify_locked(std::unique_lock<std::mutex>& lock) {
  if (!notify_) return;
  // Called outside the lock (it posts to the session, which may be draining this channel), but
  // counted, so close() can wait for it to return; also when it throws.
  struct call_under_way {
    sse_channel& channel;
    std::unique_lock<std::mutex>& lock;
    ~call_under_way() {
      lock.lock();
      if (--channel.notifying_ == 0) channel.notified_.notify_all();
    }
  };
  auto fn = notify_;
  ++notifying_;
  lock.unlock();
  call_under_way counted{*this, lock};
  fn();
}

}  // namespace jetperf::api
