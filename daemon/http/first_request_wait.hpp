#pragma once
// Connections waiting for a request: those that have not sent their first one yet and idle
// keep-alives between requests, oldest first. When every slot is taken, the listener closes the
// oldest of them to make room, and so does a tokenless request that arrived on a slot kept for
// the token: a socket that sends nothing, or sent one request and idles, holds its slot only
// until someone needs it (and for header_timeout or idle_timeout at most), so idle sockets
// cannot keep the token holder, or anyone, out.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

namespace jetperf::daemon {

class first_request_wait {
 public:
  using closer = std::function<void()>;

  /// A connection waiting this long with no request is silent (a request on its way is read in
  /// microseconds, a client's next one on a keep-alive follows its answer at once).
  static constexpr std::chrono::milliseconds k_silent_after{100};

  /// Registers a connection that waits for its first request; `close` closes it (from any
  /// thread). Returns the ticket that removes it.
  std::uint64_t add(closer close) {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_.emplace(++next_, entry{std::chrono::steady_clock::now(), std::move(close)});
    return next_;
  }
  /// The connection's first request arrived, or it ended (a ticket already gone is ignored).
  void remove(std::uint64_t ticket) {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_.erase(ticket);
  }
  /// Closes the connection that has waited longest, if it has waited at least `min_wait` (a
  /// connection whose request is on its way is read long before: only silent ones qualify);
  /// false when none does.
  bool close_oldest(std::chrono::steady_clock::duration min_wait) {
    closer close;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (waiting_.empty() || std::chrono::steady_clock::now() - waiting_.begin()->second.since < min_wait) return false;
      close = std::move(waiting_.begin()->second.close);
      waiting_.erase(waiting_.begin());
    }
    close();
    return true;
  }
  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return waiting_.size();
  }

 private:
  struct entry {
    std::chrono::steady_clock::time_point since;
    closer close;
  };
  mutable std::mutex mutex_;
  std::map<std::uint64_t, entry> waiting_;  ///< by ticket: the oldest first
  std::uint64_t next_ = 0;
};

}  // namespace jetperf::daemon
