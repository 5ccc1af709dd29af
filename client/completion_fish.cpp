// fish: a function that finds the command the line is at (as the bash script does), and one
// `complete` line per subcommand and option, conditioned on that command.
#include <sstream>

#include "cli_reference.hpp"
#include "completion_words.hpp"

namespace jetperf::client {

namespace {

// A word for fish's single quotes: \ and ' are escaped with a backslash.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\\' || ch == '\'') out += '\\';
    out += ch == '\n' ? ' ' : ch;
  }
  return out + "'";
}

std::string words_of(const std::vector<std::string>& list) {
  std::string out;
  for (const auto& w : list) out += (out.empty() ? "" : " ") + quoted(w);
  return out;
}

// One option's complete line: -s/-l names, -r/-x for a value (-x: only the listed choices).
void write_option(std::ostream& out, const std::string& condition, const cli_option& o) {
  out << "complete -c jetperf" << condition;
  for (const auto& n : o.names) out << (n.rfind("--", 0) == 0 ? " -l " + n.substr(2) : " -s " + n.substr(1));
  if (!o.choices.empty()) {
    std::string list;
    for (const auto& ch : o.choices) list += (list.empty() ? "" : " ") + ch;
    out << " -x -a " << quoted(list);
  } else if (!o.value_name.empty()) {
    out << " -r";
  }
  out << " -d " << quoted(o.description) << '\n';
}

}  // namespace

std::string fish_completion(const cli_command& root) {
  std::ostringstream out;
  out << "# fish completion for jetperf; generated from its command table (jetperf completion fish)\n"
      << "function __jetperf_path\n"
      << "    set -l cmdpath jetperf\n"
      << "    set -l skip 0\n"
      << "    for w in (commandline -opc)[2..-1]\n"
      << "        if test $skip = 1\n"
      << "            set skip 0\n"
      << "            continue\n"
      << "        end\n"
      << "        switch $w\n"
      << "            case " << words_of(value_option_names(root)) << "\n"
      << "                set skip 1\n"
      << "                continue\n"
      << "        end\n"
      << "        switch \"$cmdpath $w\"\n"
      << "            case " << words_of(sub_paths(root)) << "\n"
      << "                set cmdpath \"$cmdpath $w\"\n"
      << "        end\n"
      << "    end\n"
      << "    echo $cmdpath\n"
      << "end\n"
      << "function __jetperf_at\n"
      << "    test (__jetperf_path) = \"$argv[1]\"\n"
      << "end\n";
  // Global options are accepted after any command.
  for (const auto& o : root.options) write_option(out, "", o);
  for (const auto* c : all_commands(root)) {
    const std::string condition = " -n " + quoted("__jetperf_at " + quoted(c->path()));
    for (const auto& s : c->subcommands)
      out << "complete -c jetperf" << condition << " -f -a " << quoted(s.words.back()) << " -d " << quoted(s.description)
          << '\n';
    if (c != &root)
      for (const auto& o : c->options) write_option(out, condition, o);
  }
  return out.str();
}

}  // namespace jetperf::client
