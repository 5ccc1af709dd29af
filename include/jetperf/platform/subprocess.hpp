#pragma once
// External programs (nvpmodel, tegrastats) run through fork+execve with an argument vector,
// never a shell, with a timeout and captured output.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace jetperf::platform {

struct process_result {
  int exit_code = -1;     ///< exit status, -1 when killed by a signal or not started
  int term_signal = 0;    ///< signal that ended it, 0 otherwise
  bool timed_out = false; ///< killed because the timeout passed
  std::string out;        ///< captured stdout
  std::string err;        ///< captured stderr
};

/// Runs argv[0] (an absolute path or a name looked up in PATH) with argv, feeding `stdin_text`.
/// Kills the child (SIGKILL) when `timeout` passes. Throws platform_error when it cannot start.
process_result run_process(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                           const std::string& stdin_text = {});

/// A long-running child whose stdout is read line by line (tegrastats as a sample source).
class line_process {
 public:
  /// Starts the child; throws platform_error when it cannot start.
  explicit line_process(const std::vector<std::string>& argv);
  ~line_process();  ///< terminates the child (SIGTERM, then SIGKILL) and reaps it
  line_process(const line_process&) = delete;
  line_process& operator=(const line_process&) = delete;

  /// Waits up to `timeout` for the next line; false on timeout or end of output.
  bool read_line(std::string& line, std::chrono::milliseconds timeout);
  bool running() const;
  int pid() const { return pid_; }
  void stop();

 private:
  int pid_ = -1;
  int fd_ = -1;
  std::string buffer_;
  bool eof_ = false;
};

}  // namespace jetperf::platform
