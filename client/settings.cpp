#include "settings.hpp"

#include <fstream>
#include <sstream>

#include "cli_error.hpp"

namespace jetperf::client {

namespace {

constexpr const char* k_system_token_file = "/var/lib/jetperf/token";

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// First line of a token file; "" when it cannot be read.
std::string read_token_file(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return {};
  return trim(line);
}

std::string env_or_empty(const std::function<const char*(const char*)>& getenv, const char* name) {
  const char* v = getenv(name);
  return v ? std::string(v) : std::string();
}

std::string config_path(const std::function<const char*(const char*)>& getenv) {
  const auto xdg = env_or_empty(getenv, "XDG_CONFIG_HOME");
  if (!xdg.empty()) return xdg + "/jetperf/config";
  const auto home = env_or_empty(getenv, "HOME");
  return home.empty() ? std::string() : home + "/.config/jetperf/config";
}

}  // namespace

bool endpoint::is_local() const {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

endpoint parse_endpoint(const std::string& text) {
  std::string s = trim(text);
  const auto scheme = s.find("://");
  if (scheme != std::string::npos) {
    if (s.compare(0, scheme, "http") != 0)
      throw cli_error(exit_usage, "unsupported scheme in host '" + text + "' (only http)");
    s = s.substr(scheme + 3);
  }
  const auto slash = s.find('/');
  if (slash != std::string::npos) s.resize(slash);
  endpoint ep;
  if (!s.empty() && s.front() == '[') {
    const auto close = s.find(']');
    if (close == std::string::npos) throw cli_error(exit_usage, "bad host '" + text + "'");
    ep.host = s.substr(1, close - 1);
    if (close + 1 < s.size()) {
      if (s[close + 1] != ':') throw cli_error(exit_usage, "bad host '" + text + "'");
      ep.port = s.substr(close + 2);
    }
  } else {
    const auto colon = s.rfind(':');
    if (colon == std::string::npos) {
      ep.host = s;
    } else {
      ep.host = s.substr(0, colon);
      ep.port = s.substr(colon + 1);
    }
  }
  if (ep.host.empty()) throw cli_error(exit_usage, "bad host '" + text + "': empty host name");
  if (ep.port.empty() || ep.port.find_first_not_of("0123456789") != std::string::npos ||
      ep.port.size() > 5 || std::stoi(ep.port) == 0 || std::stoi(ep.port) > 65535)
    throw cli_error(exit_usage, "bad host '" + text + "': port must be 1..65535");
  return ep;
}

std::string config_value(const std::string& path, const std::string& key) {
  if (path.empty()) return {};
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    if (trim(line.substr(0, eq)) == key) return trim(line.substr(eq + 1));
  }
  return {};
}

void check_config_keys(const std::string& path) {
  if (path.empty()) return;
  std::ifstream in(path);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    if (trim(line).empty()) continue;
    const auto eq = line.find('=');
    const auto key = trim(line.substr(0, eq));
    if (eq == std::string::npos || (key != "host" && key != "token" && key != "token_file"))
      throw cli_error(exit_usage, path + ":" + std::to_string(number) + ": " +
                                      (eq == std::string::npos ? "expected 'key = value', got '" + trim(line) + "'"
                                                               : key + ": unknown key") +
                                      " (the keys: host, token, token_file)");
  }
}

settings resolve_settings(const global_flags& flags,
                          const std::function<const char*(const char*)>& getenv) {
  const auto config = config_path(getenv);
  check_config_keys(config);
  settings s;
  if (flags.json && !flags.format.empty() && flags.format != "json")
    throw cli_error(exit_usage, "--json is --format json, not --format " + flags.format);
  s.format = flags.json ? "json" : (flags.format.empty() ? "table" : flags.format);
  s.json = s.format == "json";
  if (!(flags.timeout_s > 0)) throw cli_error(exit_usage, "--timeout must be > 0 seconds");
  s.timeout_s = flags.timeout_s;

  std::string host = flags.host;
  if (host.empty()) host = env_or_empty(getenv, "JETPERF_HOST");
  if (host.empty()) host = config_value(config, "host");
  if (!host.empty()) s.target = parse_endpoint(host);

  s.token = flags.token;
  if (s.token.empty()) s.token = env_or_empty(getenv, "JETPERF_TOKEN");
  if (s.token.empty()) s.token = config_value(config, "token");
  if (s.token.empty()) {
    const auto file = config_value(config, "token_file");
    if (!file.empty()) {
      s.token = read_token_file(file);
      if (s.token.empty()) throw cli_error(exit_usage, "cannot read token_file '" + file + "' from " + config);
    }
  }
  // On the board itself the daemon's token is readable by its group; use it when nothing else was given.
  if (s.token.empty() && s.target.is_local()) s.token = read_token_file(k_system_token_file);
  return s;
}

}  // namespace jetperf::client
