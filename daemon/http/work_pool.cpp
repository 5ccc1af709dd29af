#include "http/work_pool.hpp"

#include <spdlog/spdlog.h>

#include <jetperf/common/free_memory.hpp>
#include <jetperf/common/thread_name.hpp>

#include "http/thread_priority.hpp"

namespace jetperf::daemon {

work_pool::work_pool(std::size_t threads, std::size_t max_queued, int nice_increment) : max_queued_(max_queued) {
  const std::size_t n = threads == 0 ? 1 : threads;
  threads_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) threads_.emplace_back([this, i, nice_increment] { run(i, nice_increment); });
}

work_pool::~work_pool() { stop(); }

bool work_pool::post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ || queue_.size() >= max_queued_) return false;
    queue_.push_back(std::move(task));
  }
  wake_.notify_one();
  return true;
}

void work_pool::stop(bool run_queued) {
  std::deque<std::function<void()>> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    if (!run_queued) dropped.swap(queue_);
  }
  wake_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
  // `dropped` goes here, after the workers: what the tasks hold is released on this thread.
}

std::size_t work_pool::busy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size() + running_;
}

void work_pool::run(std::size_t index, int nice_increment) {
  name_this_thread("jp-work-" + std::to_string(index));
  renice_this_thread(nice_increment);
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      task = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    try {
      task();
    } catch (const std::exception& e) {
      spdlog::error("http: a worker task failed: {}", e.what());
    }
    // The requests served here are the large ones (uploads, exports, result tables).
    return_free_memory();
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
  }
}

}  // namespace jetperf::daemon
