#pragma once
// What the two ways platform runs a program share (subprocess.cpp for nvpmodel and tegrastats,
// user_process.cpp for a command job's program): owned descriptors, close-on-exec pipes, and a
// wait status read into exit code and signal. Private to src/platform.
#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include <jetperf/common/errors.hpp>
#include <jetperf/common/unique_handle.hpp>

namespace jetperf::platform::detail {

struct fd_traits {
  using handle_type = int;
  static int null() noexcept { return -1; }
  static void release(int fd) noexcept { ::close(fd); }
};
// Every descriptor is owned, so a pipe or fork failing halfway closes the ones made before.
using unique_fd = unique_handle<fd_traits>;

struct pipe_pair {
  unique_fd r;
  unique_fd w;
};

inline pipe_pair make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw platform_error(std::string("pipe failed: ") + std::strerror(errno));
  return {unique_fd(fds[0]), unique_fd(fds[1])};
}

/// A waitpid status into `r.exit_code` (-1 when a signal ended it) and `r.term_signal`.
template <typename Result>
void fill_status(Result& r, int st) {
  if (WIFEXITED(st)) {
    r.exit_code = WEXITSTATUS(st);
  } else if (WIFSIGNALED(st)) {
    r.exit_code = -1;
    r.term_signal = WTERMSIG(st);
  }
}

}  // namespace jetperf::platform::detail
