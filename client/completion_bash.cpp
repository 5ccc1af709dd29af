// bash: a `complete -F` function that finds the command the line is at (skipping options and
// their values), then offers that command's subcommands and options, or an option's values.
#include <sstream>

#include "cli_reference.hpp"
#include "completion_words.hpp"

namespace jetperf::client {

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// Values of the options with a fixed list: the command's own first ("jetperf results --format"),
// then the global ones wherever they are given.
void write_choices(std::ostream& out, const cli_command& root) {
  const auto reply = [&out](const choice_case& cc) {
    out << "    " << case_patterns(cc.keys) << ") COMPREPLY=($(compgen -W \"" << joined(cc.choices)
        << "\" -- \"$cur\")); return ;;\n";
  };
  out << "  case \"$cmdpath $prev\" in\n";
  for (const auto& cc : choice_cases(root, false)) reply(cc);
  out << "  esac\n  case \"$prev\" in\n";
  for (const auto& cc : choice_cases(root, true)) reply(cc);
  // Any other value: the shell's default (file names).
  out << "    " << case_patterns(value_option_names(root)) << ") return ;;\n  esac\n";
}

}  // namespace

std::string bash_completion(const cli_command& root) {
  std::ostringstream out;
  out << "# bash completion for jetperf; generated from its command table (jetperf completion bash)\n"
      << "_jetperf() {\n"
      << "  local cur prev cmdpath w i words\n"
      << "  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
      << "  prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
      << "  cmdpath=jetperf\n"
      << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      << "    w=\"${COMP_WORDS[i]}\"\n"
      << "    case \"$w\" in\n"
      << "      " << case_patterns(value_option_names(root)) << ") ((i++)); continue ;;\n"
      << "    esac\n"
      << "    case \"$cmdpath $w\" in\n"
      << "      " << case_patterns(sub_paths(root)) << ") cmdpath=\"$cmdpath $w\" ;;\n"
      << "    esac\n"
      << "  done\n";
  write_choices(out, root);
  out << "  case \"$cmdpath\" in\n";
  for (const auto* c : all_commands(root))
    out << "    \"" << c->path() << "\") words=\"" << joined(offered_words(*c, root)) << "\" ;;\n";
  out << "  esac\n"
      << "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
      << "}\n"
      << "complete -o default -F _jetperf jetperf\n";
  return out.str();
}

}  // namespace jetperf::client
