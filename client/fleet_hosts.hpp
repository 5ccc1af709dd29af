#pragma once
// The boards of a lab for `jetperf fleet`: a hosts file (~/.config/jetperf/hosts) of
// `name = host:port [token-file]` lines, or `--hosts a,b,c` (each `host:port` or `name=host:port`).
// Pure text handling: the client turns each address into an endpoint and reads the token files.
#include <stdexcept>
#include <string>
#include <vector>

namespace jetperf::client {

struct fleet_host_entry {
  std::string name;        ///< what the output calls the board
  std::string address;     ///< "host:port", "http://host:port", "[::1]:7070"
  std::string token_file;  ///< "" = the client's own token
};

/// Bad hosts text; the message names the file and line (or the --hosts entry).
class fleet_hosts_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses a hosts file's text (`#` comments, blank lines). `where` (the path) prefixes errors.
/// Names are letters, digits, '.', '_', '-', each at most once.
std::vector<fleet_host_entry> parse_hosts_file(const std::string& text, const std::string& where);

/// Parses `--hosts a,b=host:port,...`; a bare entry is named by its address.
std::vector<fleet_host_entry> parse_hosts_list(const std::string& list);

/// The entries named in `on` (comma list), in `on`'s order; every name must exist. Empty: all.
std::vector<fleet_host_entry> select_hosts(const std::vector<fleet_host_entry>& all, const std::string& on);

}  // namespace jetperf::client
