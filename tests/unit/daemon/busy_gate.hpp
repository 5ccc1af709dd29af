#pragma once
// Requests kept busy until the test lets them go: a connection whose request is being served is
// never closed for another (only connections that wait for a request are), so these tests hold
// slots with busy requests rather than idle keep-alives, whatever the host's timing.
#include <condition_variable>
#include <mutex>
#include <string>

#include <jetperf/api/http_types.hpp>

#include "http/http_server.hpp"

namespace jetperf::daemon::test {

class busy_gate {
 public:
  /// Blocks the calling work thread until release().
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    open_cv_.wait(lock, [this] { return open_; });
  }
  void release() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      open_ = true;
    }
    open_cv_.notify_all();
  }
  /// Handlers that run "/hold" on the work pool, waiting for the gate, and answer the rest with
  /// `answer`.
  template <class Answer>
  request_handlers handlers(Answer answer) {
    request_handlers h;
    h.blocking = [](const api::http_request& r) { return r.target == "/hold"; };
    h.handle = [this, answer](const api::http_request& r) {
      if (r.target == "/hold") wait();
      return answer(r);
    };
    return h;
  }

 private:
  std::mutex mutex_;
  std::condition_variable open_cv_;
  bool open_ = false;
};

}  // namespace jetperf::daemon::test
