#pragma once
// The boards `jetperf fleet` talks to, and running one request sequence on each of them at once.
// Every board has its own connection, thread and timeouts, so one slow or dead board never holds
// up the others; its failure becomes that board's outcome instead of ending the command.
#include <functional>
#include <string>
#include <vector>

#include "cli_error.hpp"
#include "command.hpp"
#include "fleet_hosts.hpp"

namespace jetperf::client {

struct fleet_board {
  std::string name;
  settings config;  ///< the global settings with this board's address and token
};

/// Where the boards come from: --hosts (a list) wins over --hosts-file, which wins over
/// ~/.config/jetperf/hosts; `on` (names, comma-separated) narrows them. Each board's token is its
/// token file's first line, else the client's own token. Throws cli_error(exit_usage).
std::vector<fleet_board> resolve_fleet(const settings& base, const std::string& hosts_list,
                                       const std::string& hosts_file, const std::string& on);

/// How one board's part went: exit_ok, or the code and one-line message of what failed.
struct board_outcome {
  int code = exit_ok;
  std::string error;
};

/// Runs `work(index, ctx)` for every board on its own thread and waits for all of them. An
/// exception on a board becomes its outcome (cli_error keeps its code; others are exit_failure).
std::vector<board_outcome> for_each_board(const std::vector<fleet_board>& boards,
                                          const std::function<void(std::size_t, context&)>& work);

/// The exit status of a fleet command: the highest of the boards' codes (0 when all succeeded).
int fleet_exit_code(const std::vector<board_outcome>& outcomes);

}  // namespace jetperf::client
