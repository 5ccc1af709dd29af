#pragma once
// The client's command table as data: each command's words, description, options and
// subcommands, walked from the CLI11 app (cli_walk.hpp). Shell completion (bash, zsh, fish) and
// the man page are written from it, so they list exactly the commands and flags the client has.
#include <string>
#include <vector>

namespace jetperf::client {

struct cli_option {
  std::vector<std::string> names;    ///< "-o", "--output"; empty for a positional
  std::string value_name;            ///< "FILE", "ID"; empty for a flag
  std::vector<std::string> choices;  ///< the values it accepts, when they are a fixed list
  std::string description;
};

struct cli_command {
  std::vector<std::string> words;  ///< {"jetperf", "mode", "set"}
  std::string description;
  std::vector<cli_option> options;     ///< named ones
  std::vector<cli_option> positionals;  ///< in order
  std::vector<cli_command> subcommands;
  /// "jetperf mode set"
  std::string path() const;
};

/// The command and all below it, parents first.
std::vector<const cli_command*> all_commands(const cli_command& root);

/// The bash completion script (a `complete -F` function for `jetperf`).
std::string bash_completion(const cli_command& root);
/// The zsh completion script (#compdef jetperf), for a vendor-completions directory as `_jetperf`.
std::string zsh_completion(const cli_command& root);
/// The fish completion script (`complete -c jetperf` lines).
std::string fish_completion(const cli_command& root);
/// jetperf.1 in roff (man(7)): every command with its options; `footer` lines become sections
/// (ENVIRONMENT, EXIT STATUS) as given.
std::string man_page(const cli_command& root, const std::string& footer);

}  // namespace jetperf::client
