#pragma once
// The real jetperfd as a child process for integration tests and benchmarks: its own scratch
// directory (database, token, ready file, log), an ephemeral loopback port announced through
// --ready-file, and stop (SIGTERM), kill (SIGKILL) and restart on the same database.
#include <cstddef>
#include <string>
#include <sys/types.h>
#include <vector>

#include <support/temp_dir.hpp>

namespace jetperf::test {

class daemon_process {
 public:
  /// Starts the daemon; throws std::runtime_error (with the daemon's log) when it is not ready
  /// within 20 s or exits early. `extra_args` are appended to every start. `program`: another
  /// jetperfd than the build's (a benchmark comparing an earlier one); empty: the build's.
  explicit daemon_process(std::vector<std::string> extra_args = {}, std::string program = {});
  /// Stops a running daemon (SIGTERM, then SIGKILL after 20 s).
  ~daemon_process();
  daemon_process(const daemon_process&) = delete;
  daemon_process& operator=(const daemon_process&) = delete;

  void start();
  /// SIGTERM and wait; returns the exit status, or 128 + signal when it died of a signal.
  int stop();
  /// SIGKILL and wait.
  void kill();
  /// stop() when running, then start() on the same database and token.
  void restart();
  bool running();

  int port() const { return port_; }
  /// The running daemon's process id (-1 when stopped).
  pid_t pid() const { return pid_; }
  /// Reads the port from the ready file again: a daemon that re-executed itself (a simulated
  /// board's reboot) listens on a new one. Returns it (the old one while no new file is written).
  int reload_port();
  /// "127.0.0.1:PORT"
  std::string address() const;
  const std::string& token() const { return token_; }
  std::string db_path() const { return dir_.file("jetperf.db"); }
  const std::string& dir() const { return dir_.path(); }
  /// Everything the daemon wrote to stdout and stderr so far (all starts).
  std::string log() const;
  /// {"--host", address(), "--token", token()} for run_client.
  std::vector<std::string> client_args() const;

 private:
  int wait_exit(int timeout_ms);
  /// Fails the current test with the first sanitizer report the daemon wrote since the last check.
  void check_sanitizer_report();

  temp_dir dir_;
  std::vector<std::string> extra_args_;
  std::string program_;
  std::string token_;
  pid_t pid_ = -1;
  int port_ = 0;
  std::size_t log_checked_ = 0;  ///< bytes of the log already looked at for sanitizer reports
};

}  // namespace jetperf::test
