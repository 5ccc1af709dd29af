#pragma once
// The unix datagram socket a command job's program sends its phase markers to
// (JETPERF_MARKERS=<path>). Owned by the daemon for the job's lifetime; only the program's
// account may send to it. A thread of its own ("jp-markers") stamps each datagram on
// CLOCK_MONOTONIC as it arrives (the kernel's receive stamp), so markers are timed even while the
// runner waits, and drains the socket so that a program's sends never block on a full queue.
#include <atomic>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <sys/socket.h>
#include <sys/types.h>

#include <jetperf/kinds/command/marker.hpp>

namespace jetperf::kinds {

struct marker_batch {
  std::vector<marker> markers;
  std::size_t dropped = 0;    ///< beyond the per-run limits (count, k_max_marker_bytes_per_run)
  std::size_t bytes = 0;      ///< names and attributes kept
  std::size_t malformed = 0;  ///< lines that did not parse
  std::vector<std::string> errors;  ///< the first few malformed lines' reasons
};

class marker_socket {
 public:
  /// Binds at `path` (a stale file there is removed), gives it to `owner` (uid, gid) when set,
  /// mode 0600, and starts receiving. At most `max_markers` are kept between two take()s.
  /// Throws platform_error when the socket cannot be made.
  marker_socket(std::string path, std::optional<std::pair<uid_t, gid_t>> owner, std::size_t max_markers);
  ~marker_socket();  ///< stops the thread and removes the socket file
  marker_socket(const marker_socket&) = delete;
  marker_socket& operator=(const marker_socket&) = delete;

  const std::string& path() const { return path_; }
  /// What arrived since the last take(), moved out.
  marker_batch take();

 private:
  void receive_loop();
  void drain_locked();
  /// When the datagram arrived (CLOCK_MONOTONIC): the kernel's stamp, or now without one.
  std::int64_t receipt_ns(const msghdr& msg) const;
  void on_datagram_locked(const char* data, std::size_t n, bool truncated, std::int64_t t_ns);

  std::string path_;
  int fd_ = -1;
  std::size_t max_markers_;
  bool kernel_stamps_ = false;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  marker_batch pending_;
  std::thread thread_;
};

}  // namespace jetperf::kinds
