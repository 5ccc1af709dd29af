#include "reexec.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <spdlog/spdlog.h>

namespace jetperf::daemon {

void reexec_self(char** argv) {
  spdlog::info("starting again (the simulated board boots)");
  spdlog::default_logger()->flush();
  // The same pid, arguments and environment: the new image finds the same database and board.
  ::execv("/proc/self/exe", argv);
  const int err = errno;
  spdlog::critical("re-executing jetperfd failed: {}", std::strerror(err));
  errno = err;
}

}  // namespace jetperf::daemon
