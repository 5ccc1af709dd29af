#include "completion_words.hpp"

#include <algorithm>

namespace jetperf::client {

namespace {

void add_once(std::vector<std::string>& out, const std::string& w) {
  if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
}

}  // namespace

std::vector<std::string> value_option_names(const cli_command& root) {
  std::vector<std::string> out;
  for (const auto* c : all_commands(root))
    for (const auto& o : c->options)
      if (!o.value_name.empty())
        for (const auto& n : o.names) add_once(out, n);
  return out;
}

std::vector<const cli_option*> accepted_options(const cli_command& c, const cli_command& root) {
  std::vector<const cli_option*> out;
  std::vector<std::string> names;
  for (const auto& o : c.options) {
    out.push_back(&o);
    names.insert(names.end(), o.names.begin(), o.names.end());
  }
  if (&c == &root) return out;
  for (const auto& o : root.options) {
    const bool shadowed = std::any_of(o.names.begin(), o.names.end(), [&names](const std::string& n) {
      return std::find(names.begin(), names.end(), n) != names.end();
    });
    if (!shadowed) out.push_back(&o);
  }
  return out;
}

std::vector<std::string> offered_words(const cli_command& c, const cli_command& root) {
  std::vector<std::string> out;
  for (const auto& s : c.subcommands) add_once(out, s.words.back());
  for (const auto* o : accepted_options(c, root))
    for (const auto& n : o->names)
      if (n.rfind("--", 0) == 0) add_once(out, n);
  return out;
}

std::vector<choice_case> choice_cases(const cli_command& root, bool global) {
  std::vector<choice_case> out;
  if (global) {
    for (const auto& o : root.options)
      if (!o.choices.empty()) out.push_back({o.names, o.choices});
    return out;
  }
  for (const auto* c : all_commands(root)) {
    if (c == &root) continue;
    for (const auto& o : c->options) {
      if (o.choices.empty()) continue;
      choice_case cc{{}, o.choices};
      for (const auto& n : o.names) cc.keys.push_back(c->path() + " " + n);
      out.push_back(std::move(cc));
    }
  }
  return out;
}

std::string case_patterns(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "\"" : "|\"") + w + "\"";
  return out;
}

std::vector<std::string> sub_paths(const cli_command& root) {
  std::vector<std::string> out;
  for (const auto* c : all_commands(root))
    if (c != &root) out.push_back(c->path());
  return out;
}

}  // namespace jetperf::client
