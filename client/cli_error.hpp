#pragma once
// The one exception the CLI throws: a one-line message and the documented exit code it maps to.
#include <stdexcept>
#include <string>

namespace jetperf::client {

/// Exit codes of `jetperf` (also listed in --help).
enum exit_code : int {
  exit_ok = 0,       ///< success (watch: the job succeeded)
  exit_failure = 1,  ///< the server answered with an error, or the watched job did not succeed
  exit_usage = 2,    ///< bad command line or unreadable local input
  exit_connect = 3,  ///< the daemon could not be reached (connect, transport or timeout)
  exit_interrupted = 130,  ///< Ctrl-C (SIGINT) while watching: the job goes on (128 + SIGINT, as shells do)
};

class cli_error : public std::runtime_error {
 public:
  /// `message` is printed as "error: <message>".
  cli_error(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

}  // namespace jetperf::client
