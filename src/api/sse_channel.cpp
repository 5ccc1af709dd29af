#include <jetperf/api/sse_channel.hpp>

namespace jetperf::api {

void sse_channel::push(const std::string& event, const std::string& data, bool last) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (closed_ || finished_) return;
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
  frames_.push_back(std::move(frame));
  if (last) finished_ = true;
  notify_locked(lock);
}

void sse_channel::push_comment(const std::string& text) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (closed_ || finished_) return;
  frames_.push_back(": " + text + "\n\n");
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
  if (!frames_.empty() || finished_) notify_locked(lock);
}

bool sse_channel::drain(std::vector<std::string>& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  while (!frames_.empty()) {
    out.push_back(std::move(frames_.front()));
    frames_.pop_front();
  }
  return finished_;
}

bool sse_channel::closed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return closed_;
}

void sse_channel::close() {
  std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
  frames_.clear();
  notify_ = nullptr;
}

void sse_channel::notify_locked(std::unique_lock<std::mutex>& lock) {
  auto fn = notify_;
  lock.unlock();
  if (fn) fn();
}

}  // namespace jetperf::api
