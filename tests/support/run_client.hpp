#pragma once
// Runs the real `jetperf` binary (client_path()) with an argument vector, no shell.
#include <map>
#include <string>
#include <vector>

namespace jetperf::test {

struct client_result {
  int exit_code = -1;  ///< 128 + signal when it died of a signal
  std::string out;     ///< stdout
  std::string err;     ///< stderr
};

/// The environment is this process's, without JETPERF_* and with XDG_CONFIG_HOME pointing to an
/// empty place (so a developer's config cannot leak in), then `env` on top (an empty value
/// unsets). Killed after `timeout_s`.
/// Runs `argv` (argv[0] is the program path) with the environment described above; its stdin is
/// `stdin_file` (empty: /dev/null). With `interrupt_when_out_has`, the program gets SIGINT (a
/// user's Ctrl-C) once its stdout holds that text.
client_result run_program(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env = {},
                          int timeout_s = 60, const std::string& stdin_file = {},
                          const std::string& interrupt_when_out_has = {});

client_result run_client(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {},
                         int timeout_s = 60);

}  // namespace jetperf::test
