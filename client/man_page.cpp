// jetperf.1: roff for man(7), written from the command table: the global options, then each
// command (its words, arguments and options) in the order `jetperf --help` lists them.
#include <sstream>

#include "cli_reference.hpp"

namespace jetperf::client {

namespace {

// Text for roff: a backslash is \e, and a line may not start with a control character.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char ch : text) {
    if (line_start && (ch == '.' || ch == '\'')) out += "\\&";
    if (ch == '\\')
      out += "\\e";
    else
      out += ch;
    line_start = ch == '\n';
  }
  return out;
}

// An option name in bold, its dashes as roff's minus (\-), as man pages spell options.
std::string option_name(const std::string& name) {
  std::string out;
  for (char ch : name) out += ch == '-' ? std::string("\\-") : std::string(1, ch);
  return "\\fB" + out + "\\fR";
}

void write_option(std::ostream& out, const cli_option& o) {
  out << ".TP\n";
  for (std::size_t i = 0; i < o.names.size(); ++i) out << (i ? ", " : "") << option_name(o.names[i]);
  if (!o.choices.empty()) {
    std::string list;
    for (const auto& ch : o.choices) list += (list.empty() ? "" : "|") + ch;
    out << " \\fI" << roff(list) << "\\fR";
  } else if (!o.value_name.empty()) {
    out << " \\fI" << roff(o.value_name) << "\\fR";
  }
  out << '\n' << roff(o.description) << '\n';
}

void write_command(std::ostream& out, const cli_command& c) {
  out << ".SS \"" << c.path();
  for (const auto& p : c.positionals) out << " \\fI" << roff(p.value_name) << "\\fR";
  out << "\"\n" << roff(c.description) << '\n';
  for (const auto& p : c.positionals) {
    out << ".TP\n\\fI" << roff(p.value_name) << "\\fR\n" << roff(p.description) << '\n';
  }
  for (const auto& o : c.options) write_option(out, o);
}

}  // namespace

std::string man_page(const cli_command& root, const std::string& footer) {
  std::ostringstream out;
  out << ".\\\" jetperf(1); generated from the client's command table (jetperf man)\n"
      << ".TH JETPERF 1 \"\" \"jetperf\" \"User Commands\"\n"
      << ".SH NAME\njetperf \\- " << roff(root.description) << '\n'
      << ".SH SYNOPSIS\n.B jetperf\n[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGUMENTS\\fR] [\\fIOPTIONS\\fR]\n"
      << ".SH DESCRIPTION\n"
      << "jetperf is the command-line client of jetperfd, the profiling daemon for NVIDIA Jetson boards: it "
         "submits jobs, follows them and prints their results. The options below are accepted before or after "
         "the command.\n"
      << ".SH OPTIONS\n";
  for (const auto& o : root.options) write_option(out, o);
  out << ".SH COMMANDS\n";
  for (const auto* c : all_commands(root))
    if (c != &root) write_command(out, *c);
  out << ".SH NOTES\n";
  std::istringstream lines(footer);
  std::string line;
  while (std::getline(lines, line))
    if (!line.empty()) out << ".PP\n" << roff(line) << '\n';
  out << ".SH SEE ALSO\n\\fBjetperfd \\-\\-help\\fR for the daemon; docs/client.md and docs/api.md in jetperf's "
         "source tree; the board's web page at http://BOARD:7070/.\n";
  return out.str();
}

}  // namespace jetperf::client
