#include <jetperf/platform/subprocess.hpp>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>

#include <jetperf/common/errors.hpp>
#include <jetperf/common/unique_handle.hpp>

#include "child_process.hpp"

extern char** environ;

namespace jetperf::platform {

namespace {

using detail::fill_status;
using detail::make_pipe;
using detail::pipe_pair;
using detail::unique_fd;
using clock_type = std::chrono::steady_clock;

std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = ::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return name;
}

/// Forks and execs argv with the given child-side descriptors (-1 = /dev/null). Reports exec
/// failure through a close-on-exec pipe so that "cannot start" is an exception, not exit 127.
pid_t spawn(const std::vector<std::string>& argv, int in_fd, int out_fd, int err_fd) {
  if (argv.empty()) throw platform_error("cannot start a process: empty argument vector");
  const std::string program = find_program(argv[0]);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pipe_pair status = make_pipe();
  pid_t pid = ::fork();
  if (pid < 0) throw platform_error("fork failed for " + argv[0] + ": " + ::strerror(errno));
  if (pid == 0) {
    int devnull = ::open("/dev/null", O_RDWR);
    ::dup2(in_fd >= 0 ? in_fd : devnull, 0);
    ::dup2(out_fd >= 0 ? out_fd : devnull, 1);
    ::dup2(err_fd >= 0 ? err_fd : devnull, 2);
    // The daemon may block or ignore signals in its threads (sigwait); the child starts clean,
    // so that SIGTERM from line_process::stop() reaches it.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::signal(SIGPIPE, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::signal(SIGINT, SIG_DFL);
    ::execve(program.c_str(), args.data(), environ);
    int e = errno;
    ssize_t ignored = ::write(status.w.get(), &e, sizeof e);
    (void)ignored;
    ::_exit(127);
  }
  status.w.reset();
  int child_errno = 0;
  ssize_t n;
  do {
    n = ::read(status.r.get(), &child_errno, sizeof child_errno);
  } while (n < 0 && errno == EINTR);
  status.r.reset();
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    int st = 0;
    ::waitpid(pid, &st, 0);
    throw platform_error("cannot start " + argv[0] + ": " + ::strerror(child_errno));
  }
  return pid;
}


}  // namespace

process_result run_process(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                           const std::string& stdin_text) {
  pipe_pair in = make_pipe();
  pipe_pair out = make_pipe();
  pipe_pair err = make_pipe();
  const pid_t pid = spawn(argv, in.r.get(), out.w.get(), err.w.get());
  in.r.reset();
  out.w.reset();
  err.w.reset();
  for (int fd : {in.w.get(), out.r.get(), err.r.get()}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  if (stdin_text.empty()) in.w.reset();

  // A child that exits without reading its input must not kill us with SIGPIPE: block it for
  // this thread while writing and swallow a pending one afterwards.
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  process_result result;
  size_t written = 0;
  const auto deadline = clock_type::now() + timeout;
  char buf[8192];
  while (out.r || err.r || in.w) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      break;
    }
    pollfd fds[3];
    int nfds = 0;
    if (out.r) fds[nfds++] = {out.r.get(), POLLIN, 0};
    if (err.r) fds[nfds++] = {err.r.get(), POLLIN, 0};
    if (in.w) fds[nfds++] = {in.w.get(), POLLOUT, 0};
    int rc = ::poll(fds, static_cast<nfds_t>(nfds), static_cast<int>(left.count()));
    if (rc < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < nfds; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == in.w.get()) {
        ssize_t n = ::write(in.w.get(), stdin_text.data() + written, stdin_text.size() - written);
        if (n > 0) written += static_cast<size_t>(n);
        // The child may exit without reading its input (EPIPE): that is not our failure.
        if (n < 0 && errno != EAGAIN && errno != EINTR) in.w.reset();
        if (written >= stdin_text.size()) in.w.reset();
        continue;
      }
      unique_fd& fd = fds[i].fd == out.r.get() ? out.r : err.r;
      std::string& sink = fds[i].fd == out.r.get() ? result.out : result.err;
      ssize_t n = ::read(fd.get(), buf, sizeof buf);
      if (n > 0) {
        sink.append(buf, static_cast<size_t>(n));
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        fd.reset();
      }
    }
  }
  in.w.reset();
  out.r.reset();
  err.r.reset();
  sigset_t pending;
  sigpending(&pending);
  if (sigismember(&pending, SIGPIPE) && !sigismember(&old_set, SIGPIPE)) {
    timespec zero{0, 0};
    ::sigtimedwait(&pipe_set, nullptr, &zero);
  }
  ::pthread_sigmask(SIG_SETMASK, &old_set, nullptr);

  int st = 0;
  if (result.timed_out) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &st, 0);
    fill_status(result, st);
    return result;
  }
  // Output closed; the child may still be running (it closed stdout early): wait out the rest.
  for (;;) {
    pid_t w = ::waitpid(pid, &st, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (clock_type::now() >= deadline) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &st, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  fill_status(result, st);
  return result;
}

line_process::line_process(const std::vector<std::string>& argv) {
  pipe_pair out = make_pipe();
  pid_ = spawn(argv, -1, out.w.get(), 2);
  out.w.reset();
  fd_ = out.r.release();
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
}

line_process::~line_process() { stop(); }

bool line_process::read_line(std::string& line, std::chrono::milliseconds timeout) {
  const auto deadline = clock_type::now() + timeout;
  for (;;) {
    auto nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      buffer_.erase(0, nl + 1);
      return true;
    }
    if (eof_ || fd_ < 0) {
      if (buffer_.empty()) return false;
      line.swap(buffer_);
      buffer_.clear();
      return true;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now());
    if (left.count() < 0) return false;
    pollfd p{fd_, POLLIN, 0};
    int rc = ::poll(&p, 1, static_cast<int>(left.count()));
    if (rc < 0 && errno == EINTR) continue;
    if (rc <= 0) return false;
    char buf[8192];
    ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n > 0) {
      buffer_.append(buf, static_cast<size_t>(n));
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
      eof_ = true;
    }
  }
}

bool line_process::running() const {
  if (pid_ <= 0) return false;
  // Signal 0 probes without reaping; a zombie still counts, so also peek with waitid(WNOWAIT).
  siginfo_t info{};
  info.si_pid = 0;
  if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_)
    return false;
  return ::kill(pid_, 0) == 0;
}

void line_process::stop() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int st = 0;
    const auto deadline = clock_type::now() + std::chrono::seconds(2);
    for (;;) {
      pid_t w = ::waitpid(pid_, &st, WNOHANG);
      if (w == pid_ || (w < 0 && errno != EINTR)) break;
      if (clock_type::now() >= deadline) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &st, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    pid_ = -1;
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace jetperf::platform
