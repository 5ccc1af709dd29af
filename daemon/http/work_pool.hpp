#pragma once
// A few threads ("jp-work-N") for requests whose handler may wait: cancelling a running job (until
// its next safe point), nvpmodel (seconds on a board), clock changes, large result sets. The io
// threads only move bytes, so /v1/health answers at once while such a request waits. The queue is
// bounded: a request beyond it is answered 503 rather than queued without limit.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace jetperf::daemon {

class work_pool {
 public:
  /// `threads` workers (at least one) niced by `nice_increment`, at most `max_queued` waiting tasks.
  work_pool(std::size_t threads, std::size_t max_queued, int nice_increment);
  ~work_pool();  ///< stop()
  work_pool(const work_pool&) = delete;
  work_pool& operator=(const work_pool&) = delete;

  /// Queues `task`; false (and nothing queued) when the queue is full or the pool stopped.
  bool post(std::function<void()> task);
  /// Refuses later posts, runs (or, without `run_queued`, drops) the tasks already queued and
  /// joins the workers.
  void stop(bool run_queued = true);
  /// Tasks waiting or running now.
  std::size_t busy() const;

 private:
  void run(std::size_t index, int nice_increment);

  const std::size_t max_queued_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  std::size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace jetperf::daemon
