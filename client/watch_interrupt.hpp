#pragma once
// What `watch` (and `submit --watch`) says when Ctrl-C stops it: the job runs on in the daemon,
// which a user who pressed Ctrl-C to stop the job would not otherwise learn.
#include <cstdint>
#include <string>

namespace jetperf::client {

/// "stopped watching; job 12 keeps running on the daemon (cancel it: jetperf cancel 12)", on a
/// line of its own; `after_bar` starts it on a new line (a progress bar was being redrawn).
std::string watch_interrupt_message(std::int64_t id, bool after_bar);

/// Until the guard is destroyed, SIGINT prints watch_interrupt_message(id) on stderr and exits with
/// exit_interrupted (130). A SIGINT the client was started ignoring (a shell's background job)
/// stays ignored.
class watch_interrupt_guard {
 public:
  watch_interrupt_guard(std::int64_t id, bool after_bar);
  ~watch_interrupt_guard();
  watch_interrupt_guard(const watch_interrupt_guard&) = delete;
  watch_interrupt_guard& operator=(const watch_interrupt_guard&) = delete;

 private:
  bool installed_ = false;
};

}  // namespace jetperf::client
