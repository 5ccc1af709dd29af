#include "exposure.hpp"

#include <unistd.h>

#include <jetperf/api/host_check.hpp>

namespace jetperf::daemon {

bool is_loopback(const std::string& host) {
  return host == "::1" || host == "localhost" || host.rfind("127.", 0) == 0;
}

std::vector<std::string> allowed_hosts(const daemon_config& c) {
  std::vector<std::string> hosts = api::loopback_names();
  const bool wildcard = c.listen_host == "0.0.0.0" || c.listen_host == "::";
  if (!wildcard) hosts.push_back(c.listen_host);
  if (!is_loopback(c.listen_host)) {
    // Clients on the lab network reach the board by its name; a rebinding page cannot send it.
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) == 0 && name[0]) {
      hosts.emplace_back(name);
      hosts.push_back(std::string(name) + ".local");
    }
  }
  hosts.insert(hosts.end(), c.allowed_hosts.begin(), c.allowed_hosts.end());
  return hosts;
}

std::vector<std::string> startup_warnings(const daemon_config& c) {
  std::vector<std::string> out;
  if (!is_loopback(c.listen_host) && !c.require_token_for_reads)
    out.push_back("listening on " + c.listen_text() +
                  " beyond loopback with require_token_for_reads = false: anyone on the network can read the "
                  "board, jobs and results; set require_token_for_reads = true to require the token");
  return out;
}

}  // namespace jetperf::daemon
