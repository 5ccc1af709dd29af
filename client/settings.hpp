#pragma once
// Where the client talks to and with which token, resolved once from flags, the environment and
// the config file (~/.config/jetperf/config), in that order of precedence.
#include <functional>
#include <string>

namespace jetperf::client {

/// What the global flags carried (empty = not given).
struct global_flags {
  std::string host;
  std::string token;
  bool json = false;
  std::string format;  ///< --format: table, csv or json ("" = table, json with --json)
  double timeout_s = 10.0;
};

struct endpoint {
  std::string host = "127.0.0.1";
  std::string port = "7070";
  std::string text() const { return host + ":" + port; }
  /// True for loopback names, where the daemon's own token file may be read.
  bool is_local() const;
};

struct settings {
  endpoint target;
  std::string token;
  bool json = false;            ///< format == "json": print the API's JSON
  std::string format = "table";  ///< table, csv or json
  double timeout_s = 10.0;
};

/// Parses "host:port", "host", "http://host:port/", "[::1]:7070". Throws cli_error (usage).
endpoint parse_endpoint(const std::string& text);

/// Reads `key = value` lines ("#" comments); returns "" when the key or the file is absent.
std::string config_value(const std::string& config_path, const std::string& key);

/// Refuses a config file with a line that is not `key = value` for host, token or token_file: a
/// typo would otherwise be ignored. Throws cli_error (usage) naming the file, the line and the key;
/// an absent file is fine.
void check_config_keys(const std::string& config_path);

/// Resolves the settings (after check_config_keys). `getenv` is injectable for tests; nullptr-returning means unset.
settings resolve_settings(const global_flags& flags,
                          const std::function<const char*(const char*)>& getenv);

}  // namespace jetperf::client
