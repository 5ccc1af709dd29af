#include "cli_walk.hpp"

#include <sstream>

namespace jetperf::client {

namespace {

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, by)) out.push_back(item);
  return out;
}

// CLI11 names a value "TEXT:{table,csv,json}" or "INT:ID": the set is the choices; a validator
// of ours that names the value (ID, FILE|-) is its name, else the type.
void describe_value(const CLI::Option& o, cli_option& out) {
  const auto parts = split(o.get_type_name(), ':');
  // A flag takes no value, and CLI11 gives it no type name.
  if (o.get_items_expected_max() == 0 || parts.empty() || parts[0].empty()) return;
  out.value_name = parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const auto& p = parts[i];
    if (p.size() > 2 && p.front() == '{' && p.back() == '}')
      out.choices = split(p.substr(1, p.size() - 2), ',');
    else if (p == "ID" || p == "FILE|-")
      out.value_name = p;
  }
}

cli_option describe_option(const CLI::Option& o) {
  cli_option out;
  for (const auto& s : o.get_snames()) out.names.push_back("-" + s);
  for (const auto& l : o.get_lnames()) out.names.push_back("--" + l);
  out.description = o.get_description();
  describe_value(o, out);
  if (!o.nonpositional()) out.value_name = o.get_name();
  return out;
}

cli_command describe(const CLI::App& app, std::vector<std::string> words) {
  cli_command c;
  c.words = std::move(words);
  c.description = app.get_description();
  for (const auto* o : app.get_options()) {
    if (o->get_group().empty()) continue;
    if (o->nonpositional())
      c.options.push_back(describe_option(*o));
    else
      c.positionals.push_back(describe_option(*o));
  }
  for (const auto* s : app.get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); })) {
    auto sub_words = c.words;
    sub_words.push_back(s->get_name());
    c.subcommands.push_back(describe(*s, std::move(sub_words)));
  }
  return c;
}

}  // namespace

cli_command describe_app(const CLI::App& app) {
  auto root = describe(app, {"jetperf"});
  // "jetperf: submit and follow ..." reads "submit and follow ..." after the man page's name.
  const std::string prefix = "jetperf: ";
  if (root.description.rfind(prefix, 0) == 0) root.description.erase(0, prefix.size());
  return root;
}

}  // namespace jetperf::client
