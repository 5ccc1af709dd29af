#include "fleet_hosts.hpp"

#include <cctype>
#include <set>
#include <sstream>

namespace jetperf::client {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(trim(part));
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

void check_name(const std::string& name, const std::string& where) {
  // A leading letter or digit: the name starts a CSV cell, where '-' or '=' would read as a formula.
  if (name.empty() || name.size() > 64 || !std::isalnum(static_cast<unsigned char>(name[0])) ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:[]") !=
          std::string::npos)
    throw fleet_hosts_error(where + ": '" + name + "' is not a board name (letters, digits, '.', '_', '-')");
}

void check_unique(std::vector<fleet_host_entry>& entries, const std::string& where) {
  std::set<std::string> seen;
  for (const auto& e : entries)
    if (!seen.insert(e.name).second) throw fleet_hosts_error(where + ": board '" + e.name + "' is listed twice");
}

}  // namespace

std::vector<fleet_host_entry> parse_hosts_file(const std::string& text, const std::string& where) {
  std::vector<fleet_host_entry> out;
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string at = where + ":" + std::to_string(number);
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    line = trim(line);
    if (line.empty()) continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) throw fleet_hosts_error(at + ": expected 'name = host:port [token-file]'");
    fleet_host_entry e;
    e.name = trim(line.substr(0, eq));
    check_name(e.name, at);
    std::istringstream words(line.substr(eq + 1));
    words >> e.address >> e.token_file;
    std::string extra;
    if (e.address.empty()) throw fleet_hosts_error(at + ": board '" + e.name + "' has no address");
    if (words >> extra) throw fleet_hosts_error(at + ": unexpected '" + extra + "' after the token file");
    out.push_back(std::move(e));
  }
  check_unique(out, where);
  return out;
}

std::vector<fleet_host_entry> parse_hosts_list(const std::string& list) {
  std::vector<fleet_host_entry> out;
  for (const auto& item : split(list, ',')) {
    if (item.empty()) throw fleet_hosts_error("--hosts: empty entry in '" + list + "'");
    fleet_host_entry e;
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      e.name = e.address = item;
    } else {
      e.name = trim(item.substr(0, eq));
      e.address = trim(item.substr(eq + 1));
      check_name(e.name, "--hosts");
      if (e.address.empty()) throw fleet_hosts_error("--hosts: board '" + e.name + "' has no address");
    }
    out.push_back(std::move(e));
  }
  check_unique(out, "--hosts");
  return out;
}

std::vector<fleet_host_entry> select_hosts(const std::vector<fleet_host_entry>& all, const std::string& on) {
  if (on.empty()) return all;
  std::vector<fleet_host_entry> out;
  std::set<std::string> taken;
  for (const auto& name : split(on, ',')) {
    bool found = false;
    for (const auto& e : all)
      if (e.name == name) {
        if (taken.insert(name).second) out.push_back(e);
        found = true;
      }
    if (!found) throw fleet_hosts_error("--on: no board named '" + name + "' in the hosts");
  }
  return out;
}

}  // namespace jetperf::client
