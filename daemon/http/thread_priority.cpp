#include "http/thread_priority.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <spdlog/spdlog.h>

namespace jetperf::daemon {

void renice_this_thread(int increment) {
  if (increment == 0) return;
  // PRIO_PROCESS with a thread id changes only that thread.
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  errno = 0;
  const int current = ::getpriority(PRIO_PROCESS, tid);
  if (current == -1 && errno != 0) return;
  if (::setpriority(PRIO_PROCESS, tid, current + increment) != 0)
    spdlog::debug("http: cannot renice thread: {}", std::strerror(errno));
}

}  // namespace jetperf::daemon
