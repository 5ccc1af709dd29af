#include <support/cpu_hogs.hpp>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

namespace jetperf::test {

cpu_hogs::cpu_hogs(std::size_t count) {
  if (count == 0) count = static_cast<std::size_t>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  for (std::size_t i = 0; i < count; ++i) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      // A parent that dies without unwinding (std::terminate) must not leave the host loaded.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() == 1) ::_exit(0);
      volatile unsigned long x = 0;
      for (;;) x = x + 1;
    }
    if (pid > 0) pids_.push_back(pid);
  }
}

cpu_hogs::~cpu_hogs() {
  for (pid_t p : pids_) ::kill(p, SIGKILL);
  for (pid_t p : pids_) ::waitpid(p, nullptr, 0);
}

}  // namespace jetperf::test
