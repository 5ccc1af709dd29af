#include "cli_reference.hpp"

namespace jetperf::client {

namespace {

void collect(const cli_command& c, std::vector<const cli_command*>& out) {
  out.push_back(&c);
  for (const auto& s : c.subcommands) collect(s, out);
}

}  // namespace

std::string cli_command::path() const {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

std::vector<const cli_command*> all_commands(const cli_command& root) {
  std::vector<const cli_command*> out;
  collect(root, out);
  return out;
}

}  // namespace jetperf::client
