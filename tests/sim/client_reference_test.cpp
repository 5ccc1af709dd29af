// The shell completion scripts and the man page the package installs (deploy/completion,
// deploy/man) are what the client writes from its own command table, and name every command
// `jetperf --help` lists, nested ones too; bash completes with the script.
#include <gtest/gtest.h>

#include <unistd.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <support/run_client.hpp>
#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

namespace jetperf::test {
namespace {

const char* const k_regenerate = "cmake --build build --target cli_reference_files";

// The subcommands a --help lists ("Subcommands:" then one "  name  description" line each).
std::vector<std::string> listed_subcommands(const std::string& help) {
  std::vector<std::string> out;
  std::istringstream in(help);
  std::string line;
  bool in_list = false;
  static const std::regex entry(R"(^  ([a-z][a-z-]*)(\s|$))");
  std::smatch m;
  while (std::getline(in, line)) {
    if (line == "Subcommands:") {
      in_list = true;
    } else if (in_list && std::regex_search(line, m, entry)) {
      out.push_back(m[1]);
    } else if (in_list && line.empty()) {
      in_list = false;
    }
  }
  return out;
}

// Every command path, from the client's --help pages: {"health"}, {"mode"}, {"mode", "set"}, ...
std::vector<std::vector<std::string>> command_paths() {
  std::vector<std::vector<std::string>> out;
  std::vector<std::vector<std::string>> todo = {{}};
  while (!todo.empty()) {
    const auto words = todo.back();
    todo.pop_back();
    auto args = words;
    args.push_back("--help");
    const auto r = run_client(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    for (const auto& s : listed_subcommands(r.out)) {
      auto sub = words;
      sub.push_back(s);
      out.push_back(sub);
      todo.push_back(sub);
    }
  }
  return out;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out = "jetperf";
  for (const auto& w : words) out += " " + w;
  return out;
}

TEST(client_reference, the_shipped_files_are_what_the_client_writes) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> files = {
      {{"completion", "bash"}, "deploy/completion/jetperf"},
      {{"completion", "zsh"}, "deploy/completion/_jetperf"},
      {{"completion", "fish"}, "deploy/completion/jetperf.fish"},
      {{"man"}, "deploy/man/jetperf.1"}};
  for (const auto& [args, path] : files) {
    const auto r = run_client(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(source_dir() + "/" + path), r.out) << path << " is stale; regenerate it: " << k_regenerate;
  }
}

TEST(client_reference, every_command_is_in_each_completion_script_and_the_man_page) {
  const auto paths = command_paths();
  ASSERT_GE(paths.size(), 25u);  // 21 commands and their subcommands (mode set, models show, ...)
  const auto bash = run_client({"completion", "bash"}).out;
  const auto zsh = run_client({"completion", "zsh"}).out;
  const auto fish = run_client({"completion", "fish"}).out;
  const auto man = run_client({"man"}).out;
  for (const auto& words : paths) {
    const auto path = joined(words);
    const auto parent = joined(std::vector<std::string>(words.begin(), words.end() - 1));
    // bash and zsh: the path is recognised, and the word is offered at its parent.
    EXPECT_NE(bash.find("\"" + path + "\""), std::string::npos) << path;
    EXPECT_NE(zsh.find("\"" + path + "\""), std::string::npos) << path;
    EXPECT_NE(zsh.find("'" + words.back() + ":"), std::string::npos) << path;
    EXPECT_NE(fish.find("__jetperf_at \\'" + parent + "\\'' -f -a '" + words.back() + "'"), std::string::npos) << path;
    EXPECT_NE(man.find(".SS \"" + path), std::string::npos) << path;
  }
  // The hidden commands themselves are not offered.
  EXPECT_EQ(man.find(".SS \"jetperf completion"), std::string::npos);
  EXPECT_EQ(bash.find("\"jetperf man\""), std::string::npos);
}

// Every --help string is in the man page: none names the founding documents by their internal
// name ("the seed's windows"), as tests/unit/tree/doc_words_test.cpp checks the pages.
TEST(client_reference, no_help_text_names_the_founding_documents_by_their_internal_name) {
  const auto man = run_client({"man"}).out;
  static const std::regex internal_name(R"((seeds? ?0\d\d)|(seeds?'s?)|(\bthe seeds?\b(?! of)))", std::regex::icase);
  std::smatch m;
  EXPECT_FALSE(std::regex_search(man, m, internal_name)) << "jetperf's help says '" << m.str() << "'";
}

// bash runs the script: after `jetperf mode ` it offers set; after --format, the formats; after
// `results 3 --format`, the results' own formats.
TEST(client_reference, bash_completes_commands_subcommands_and_values) {
  temp_dir dir;
  write_file(dir.file("jetperf.bash"), run_client({"completion", "bash"}).out);
  const std::string probe =
      "source " + dir.file("jetperf.bash") +
      "; ask() { COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _jetperf; echo \"${COMPREPLY[*]}\"; }"
      "; ask jetperf mo; ask jetperf mode ''; ask jetperf --host h:1 fleet st; ask jetperf jobs --format ''"
      "; ask jetperf results 3 --format d";
  const auto r = run_program({"/bin/bash", "-c", probe});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "mode models\nset --help --version --host --token --format --json --timeout\nstatus\ntable csv json\ndnnstats\n")
      << r.out;
}

// zsh and fish read their scripts (`-n`: parse only) where they are installed; fish also
// completes with its script.
TEST(client_reference, zsh_and_fish_read_their_scripts) {
  temp_dir dir;
  write_file(dir.file("_jetperf"), run_client({"completion", "zsh"}).out);
  write_file(dir.file("jetperf.fish"), run_client({"completion", "fish"}).out);
  bool any = false;
  if (::access("/usr/bin/zsh", X_OK) == 0) {
    any = true;
    const auto r = run_program({"/usr/bin/zsh", "-n", dir.file("_jetperf")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  if (::access("/usr/bin/fish", X_OK) == 0) {
    any = true;
    auto r = run_program({"/usr/bin/fish", "-n", dir.file("jetperf.fish")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    r = run_program({"/usr/bin/fish", "-c", "source " + dir.file("jetperf.fish") + "; complete -C 'jetperf mode '"});
    EXPECT_EQ(r.out.rfind("set\tSwitch the power mode", 0), 0u) << r.out << r.err;
  }
  EXPECT_TRUE(any) << "neither zsh nor fish is installed (deploy/install-deps.sh --tests installs both)";
}

}  // namespace
}  // namespace jetperf::test
