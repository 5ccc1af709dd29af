// The completion scripts and the man page written from a small command table: each command's
// words where its shell finds them, options with their values, and text escaped for each format.
#include <gtest/gtest.h>

#include "cli_reference.hpp"

namespace jetperf::client {
namespace {

cli_command small_table() {
  cli_command root;
  root.words = {"jetperf"};
  root.description = "submit and follow jobs";
  root.options = {{{"-h", "--help"}, "", {}, "Print this help"},
                  {{"--format"}, "TEXT", {"table", "csv", "json"}, "table, csv or json"}};
  cli_command mode;
  mode.words = {"jetperf", "mode"};
  mode.description = "Show the power mode";
  cli_command set;
  set.words = {"jetperf", "mode", "set"};
  set.description = "Switch it (nvpmodel -m); it's snapshotted first";
  set.positionals = {{{}, "mode", {}, "Mode id or name"}};
  set.options = {{{"-o", "--output"}, "FILE|-", {}, "Write here\\there"}};
  mode.subcommands = {set};
  root.subcommands = {mode};
  return root;
}

TEST(cli_reference, all_commands_lists_parents_first) {
  const auto root = small_table();
  std::vector<std::string> paths;
  for (const auto* c : all_commands(root)) paths.push_back(c->path());
  EXPECT_EQ(paths, (std::vector<std::string>{"jetperf", "jetperf mode", "jetperf mode set"}));
}

TEST(cli_reference, bash_finds_the_command_and_offers_its_words_and_values) {
  const auto bash = bash_completion(small_table());
  EXPECT_NE(bash.find("      \"--format\"|\"-o\"|\"--output\") ((i++)); continue ;;\n"), std::string::npos) << bash;
  EXPECT_NE(bash.find("      \"jetperf mode\"|\"jetperf mode set\") cmdpath=\"$cmdpath $w\" ;;\n"), std::string::npos) << bash;
  EXPECT_NE(bash.find("    \"jetperf mode\") words=\"set --help --format\" ;;\n"), std::string::npos) << bash;
  EXPECT_NE(bash.find("    \"jetperf mode set\") words=\"--output --help --format\" ;;\n"), std::string::npos) << bash;
  EXPECT_NE(bash.find("    \"--format\") COMPREPLY=($(compgen -W \"table csv json\" -- \"$cur\")); return ;;\n"),
            std::string::npos)
      << bash;
  EXPECT_NE(bash.find("complete -o default -F _jetperf jetperf\n"), std::string::npos);
}

TEST(cli_reference, zsh_describes_each_word_with_quotes_escaped) {
  const auto zsh = zsh_completion(small_table());
  EXPECT_EQ(zsh.rfind("#compdef jetperf\n", 0), 0u);
  EXPECT_NE(zsh.find("'set:Switch it (nvpmodel -m); it'\\''s snapshotted first'"), std::string::npos) << zsh;
  EXPECT_NE(zsh.find("(\"--format\") compadd -- 'table' 'csv' 'json'; return ;;"), std::string::npos) << zsh;
  // Never `path`: zsh ties it to $PATH.
  EXPECT_EQ(zsh.find("local path"), std::string::npos);
}

TEST(cli_reference, fish_conditions_each_line_on_the_command) {
  const auto fish = fish_completion(small_table());
  EXPECT_NE(fish.find("complete -c jetperf -n '__jetperf_at \\'jetperf mode\\'' -f -a 'set' -d 'Switch it (nvpmodel -m); "
                      "it\\'s snapshotted first'\n"),
            std::string::npos)
      << fish;
  EXPECT_NE(fish.find("complete -c jetperf -l format -x -a 'table csv json' -d 'table, csv or json'\n"), std::string::npos)
      << fish;
  EXPECT_NE(fish.find("complete -c jetperf -n '__jetperf_at \\'jetperf mode set\\'' -s o -l output -r -d "
                      "'Write here\\\\there'\n"),
            std::string::npos)
      << fish;
}

TEST(cli_reference, the_man_page_is_roff_with_every_command_and_option) {
  const auto man = man_page(small_table(), "Exit codes: 0 ok\n.hidden\n");
  EXPECT_NE(man.find(".TH JETPERF 1 "), std::string::npos);
  EXPECT_NE(man.find(".SH NAME\njetperf \\- submit and follow jobs\n"), std::string::npos) << man;
  EXPECT_NE(man.find(".TP\n\\fB\\-\\-format\\fR \\fItable|csv|json\\fR\ntable, csv or json\n"), std::string::npos) << man;
  EXPECT_NE(man.find(".SS \"jetperf mode set \\fImode\\fR\"\n"), std::string::npos) << man;
  // A backslash is \e; a line may not start with a dot.
  EXPECT_NE(man.find("Write here\\ethere"), std::string::npos) << man;
  EXPECT_NE(man.find(".PP\n\\&.hidden\n"), std::string::npos) << man;
}

}  // namespace
}  // namespace jetperf::client
