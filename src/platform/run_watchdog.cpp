#include <jetperf/platform/run_watchdog.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace jetperf::platform {

namespace {

// Between fork and its end: async-signal-safe calls only (the daemon has threads by now).
[[noreturn]] void watch(int wait_fd, const char* kill_path) {
  // Out of the daemon's session and deaf to its terminal's signals: a Ctrl-C that ends the
  // daemon must not end its watchdog first.
  ::setsid();
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) ::signal(sig, SIG_IGN);
  struct rlimit lim {};
  const int max_fd = ::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < 65536 ? static_cast<int>(lim.rlim_cur) : 65536;
  for (int fd = 0; fd < max_fd; ++fd)
    if (fd != wait_fd) ::close(fd);
  char byte;
  // Nothing is ever written: the read ends when the daemon's end of the pipe closes.
  while (::read(wait_fd, &byte, 1) != 0 && errno == EINTR) {
  }
  const int fd = ::open(kill_path, O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t ignored = ::write(fd, "1", 1);
    (void)ignored;
    ::close(fd);
  }
  ::_exit(0);
}

}  // namespace

int start_run_watchdog(const std::string& parent, std::string* why) {
  const std::string kill_path = parent + "/cgroup.kill";
  if (::access(kill_path.c_str(), W_OK) != 0) {
    if (why) *why = kill_path + " cannot be written (" + std::strerror(errno) + "): this kernel has no cgroup.kill (Linux < 5.14)";
    return -1;
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    if (why) *why = std::string("pipe: ") + std::strerror(errno);
    return -1;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int err = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    if (why) *why = std::string("fork: ") + std::strerror(err);
    return -1;
  }
  if (pid == 0) {
    ::close(fds[1]);
    watch(fds[0], kill_path.c_str());
  }
  ::close(fds[0]);
  // fds[1] stays open, close-on-exec, for as long as this process lives: its closing is the
  // watchdog's signal. Programs the daemon starts never inherit it.
  return pid;
}

}  // namespace jetperf::platform
