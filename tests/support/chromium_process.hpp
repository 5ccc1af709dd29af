#pragma once
// Debian's chromium, headless, as a child process for the web page's browser tests: started with
// an argument vector (posix_spawn, no shell) on its own profile directory, with the DevTools
// port it picked itself (--remote-debugging-port=0, read back from DevToolsActivePort).
#include <string>
#include <sys/types.h>

#include <support/temp_dir.hpp>

namespace jetperf::test {

/// The first chromium that runs (`--version` answers "Chromium ..." and exits 0): $JETPERF_CHROMIUM,
/// /usr/bin/chromium, then chromium and chromium-browser on PATH. "" when none does (Ubuntu
/// 20.04's chromium-browser is a stub asking for the snap); `why` then says what was tried.
std::string find_chromium(std::string* why = nullptr);

class chromium_process {
 public:
  /// Starts `program` headless; throws std::runtime_error (with its log) when it announces no
  /// DevTools port within 30 s.
  explicit chromium_process(const std::string& program);
  /// SIGTERM, then SIGKILL after 5 s.
  ~chromium_process();
  chromium_process(const chromium_process&) = delete;
  chromium_process& operator=(const chromium_process&) = delete;

  int devtools_port() const { return port_; }
  /// What chromium wrote to stdout and stderr.
  std::string log() const;

 private:
  temp_dir dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace jetperf::test
