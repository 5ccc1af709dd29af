#pragma once
// What the three completion scripts share: the words a command line may hold at each command,
// and which options take a value (so the scripts can skip it while they find the command).
#include <string>
#include <vector>

#include "cli_reference.hpp"

namespace jetperf::client {

/// Every option name that takes a value, anywhere in the table (e.g. --host, -o, --output).
std::vector<std::string> value_option_names(const cli_command& root);
/// The words offered at `c`: its subcommands, its options, then the global (root) options, which
/// every command accepts too.
std::vector<std::string> offered_words(const cli_command& c, const cli_command& root);
/// The options `c` accepts, its own first, then the root's not shadowed by its own.
std::vector<const cli_option*> accepted_options(const cli_command& c, const cli_command& root);
/// Options whose values are a fixed list, as a shell script matches them: `keys` are
/// "<command path> <option name>" for a command's own option ("jetperf results --format"), or
/// the option's names for a global one, which every command accepts.
struct choice_case {
  std::vector<std::string> keys;
  std::vector<std::string> choices;
};
/// The commands' own (`global` false) or the root's (true) options with a fixed list of values.
std::vector<choice_case> choice_cases(const cli_command& root, bool global);
/// "a|b|c": shell case patterns (each double-quoted).
std::string case_patterns(const std::vector<std::string>& words);
/// The paths of every command below the root ("jetperf mode", "jetperf mode set", ...).
std::vector<std::string> sub_paths(const cli_command& root);

}  // namespace jetperf::client
