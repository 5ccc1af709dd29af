#include <support/daemon_process.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include <support/sanitizer.hpp>
#include <support/test_paths.hpp>

extern char** environ;

namespace jetperf::test {

namespace {

constexpr int k_ready_timeout_ms = 20000;
constexpr int k_stop_timeout_ms = 20000;

std::string random_token() {
  std::random_device rd;
  std::mt19937_64 gen(rd());
  static const char hex[] = "0123456789abcdef";
  std::string t;
  for (int i = 0; i < 40; ++i) t += hex[gen() % 16];
  return t;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int status_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

daemon_process::daemon_process(std::vector<std::string> extra_args, std::string program)
    : extra_args_(std::move(extra_args)),
      program_(program.empty() ? daemon_path() : std::move(program)),
      token_(random_token()) {
  write_file(dir_.file("token"), token_ + "\n");
  ::chmod(dir_.file("token").c_str(), 0600);
  start();
}

daemon_process::~daemon_process() {
  if (pid_ <= 0) return;
  try {
    stop();
  } catch (const std::exception&) {
    // stop() already fell back to SIGKILL; a destructor must not throw.
  }
}

std::string daemon_process::address() const { return "127.0.0.1:" + std::to_string(port_); }

std::string daemon_process::log() const { return slurp(dir_.file("daemon.log")); }

std::vector<std::string> daemon_process::client_args() const { return {"--host", address(), "--token", token_}; }

void daemon_process::start() {
  if (pid_ > 0) throw std::runtime_error("daemon_process::start: already running");
  const std::string ready = dir_.file("ready");
  ::unlink(ready.c_str());
  std::vector<std::string> args{program_, "--listen", "127.0.0.1:0", "--ready-file", ready,
                                "--db", db_path(), "--token-file", dir_.file("token"), "--config", "/dev/null"};
  // Each daemon its own simulated board: the default (/var/lib/jetperf/sim) would be one tree
  // that every daemon of a parallel ctest run rebuilds and writes at once (a file read empty
  // while another daemon rewrote it failed a job: "max_freq: not an integer: ''").
  if (std::find(extra_args_.begin(), extra_args_.end(), "--sim-dir") == extra_args_.end())
    args.insert(args.end(), {"--sim-dir", dir_.file("sim")});
  args.insert(args.end(), extra_args_.begin(), extra_args_.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  const int log_fd = ::open(dir_.file("daemon.log").c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) throw std::runtime_error("daemon_process: cannot open log: " + std::string(std::strerror(errno)));
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log_fd);
    throw std::runtime_error("daemon_process: fork: " + std::string(std::strerror(errno)));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until execve. The daemon ends with the test that
    // started it: a test killed by ctest's timeout, or a benchmark ended by an uncaught
    // exception, would otherwise leave it running (and sampling its simulated board) beside
    // every test and benchmark after it. (The signal follows the forking thread: tests start
    // their daemons on the main thread.)
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(127);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    ::dup2(log_fd, 1);
    ::dup2(log_fd, 2);
    ::execve(argv[0], argv.data(), environ);
    ::_exit(127);
  }
  ::close(log_fd);
  pid_ = pid;

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(k_ready_timeout_ms);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto text = slurp(ready);
    if (!text.empty() && text.back() == '\n') {
      const auto colon = text.rfind(':');
      if (colon != std::string::npos) port_ = std::atoi(text.c_str() + colon + 1);
      if (port_ <= 0) throw std::runtime_error("daemon_process: bad ready file '" + text + "'\nlog:\n" + log());
      // The daemon may normalize the token file; use what it serves.
      const auto served = slurp(dir_.file("token"));
      const auto end = served.find_first_of("\r\n");
      if (!served.empty()) token_ = served.substr(0, end);
      return;
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("jetperfd exited with status " + std::to_string(status_code(status)) +
                               " before it was ready\nlog:\n" + log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill();
  throw std::runtime_error("jetperfd was not ready within 20 s\nlog:\n" + log());
}

int daemon_process::wait_exit(int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r > 0) {
      pid_ = -1;
      return status_code(status);
    }
    if (r < 0 && errno == ECHILD) {
      pid_ = -1;
      return -1;
    }
    if (std::chrono::steady_clock::now() >= deadline) return -2;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

int daemon_process::stop() {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  const pid_t pid = pid_;
  int code = wait_exit(k_stop_timeout_ms);
  if (code == -2) {
    ::kill(pid, SIGKILL);
    wait_exit(k_stop_timeout_ms);
    throw std::runtime_error("jetperfd did not stop within 20 s of SIGTERM\nlog:\n" + log());
  }
  check_sanitizer_report();
  return code;
}

void daemon_process::check_sanitizer_report() {
  // The daemon's log is read by few tests, and most let the destructor stop it: in a sanitizer
  // build a finding in the daemon (TSan and LSan report and exit at the end) must fail the test
  // that ran it. Each start's part of the log is looked at once.
  const std::string text = log();
  if (text.size() <= log_checked_) return;
  const auto report = sanitizer_report(text.substr(log_checked_));
  log_checked_ = text.size();
  if (!report.empty()) ADD_FAILURE() << "jetperfd reported:\n" << report;
}

void daemon_process::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  wait_exit(k_stop_timeout_ms);
  // ASan and UBSan end the process at their first finding: it may be dead already.
  check_sanitizer_report();
}

void daemon_process::restart() {
  if (pid_ > 0) stop();
  start();
}

int daemon_process::reload_port() {
  const auto text = slurp(dir_.file("ready"));
  if (!text.empty() && text.back() == '\n') {
    const auto colon = text.rfind(':');
    const int port = colon == std::string::npos ? 0 : std::atoi(text.c_str() + colon + 1);
    if (port > 0) port_ = port;
  }
  return port_;
}

bool daemon_process::running() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    pid_ = -1;
    return false;
  }
  return true;
}

}  // namespace jetperf::test
