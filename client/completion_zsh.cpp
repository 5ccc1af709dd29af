// zsh: a #compdef function that finds the command the line is at, as the bash one does, and
// offers its subcommands and options with their descriptions (_describe), or an option's values.
#include <sstream>

#include "cli_reference.hpp"
#include "completion_words.hpp"

namespace jetperf::client {

namespace {

// A word for zsh's single quotes: ' closes, so it is written '\''.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// The first line of a description, as one entry's text.
std::string brief(const std::string& description) {
  const auto nl = description.find('\n');
  return nl == std::string::npos ? description : description.substr(0, nl);
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + quoted(w);
  return out;
}

void write_choices(std::ostream& out, const cli_command& root) {
  const auto add = [&out](const choice_case& cc) {
    out << "    (" << case_patterns(cc.keys) << ") compadd -- " << joined(cc.choices) << "; return ;;\n";
  };
  out << "  case \"$cmdpath ${words[CURRENT-1]}\" in\n";
  for (const auto& cc : choice_cases(root, false)) add(cc);
  out << "  esac\n  case \"${words[CURRENT-1]}\" in\n";
  for (const auto& cc : choice_cases(root, true)) add(cc);
  out << "    (" << case_patterns(value_option_names(root)) << ") _files; return ;;\n  esac\n";
}

void write_entries(std::ostream& out, const cli_command& c, const cli_command& root) {
  out << "    (\"" << c.path() << "\") entries=(";
  for (const auto& s : c.subcommands) out << "\n      " << quoted(s.words.back() + ":" + brief(s.description));
  for (const auto* o : accepted_options(c, root))
    for (const auto& n : o->names)
      if (n.rfind("--", 0) == 0) out << "\n      " << quoted(n + ":" + brief(o->description));
  out << ") ;;\n";
}

}  // namespace

std::string zsh_completion(const cli_command& root) {
  std::ostringstream out;
  out << "#compdef jetperf\n"
      << "# zsh completion for jetperf; generated from its command table (jetperf completion zsh)\n"
      << "_jetperf() {\n"
      << "  local cmdpath=jetperf w i\n"
      << "  local -a entries\n"
      << "  for ((i = 2; i < CURRENT; i++)); do\n"
      << "    w=${words[i]}\n"
      << "    case \"$w\" in\n"
      << "      (" << case_patterns(value_option_names(root)) << ") ((i++)); continue ;;\n"
      << "    esac\n"
      << "    case \"$cmdpath $w\" in\n"
      << "      (" << case_patterns(sub_paths(root)) << ") cmdpath=\"$cmdpath $w\" ;;\n"
      << "    esac\n"
      << "  done\n";
  write_choices(out, root);
  out << "  case \"$cmdpath\" in\n";
  for (const auto* c : all_commands(root)) write_entries(out, *c, root);
  out << "  esac\n"
      << "  _describe -t commands jetperf entries\n"
      << "}\n"
      << "_jetperf \"$@\"\n";
  return out.str();
}

}  // namespace jetperf::client
