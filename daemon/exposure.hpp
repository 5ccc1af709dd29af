#pragma once
// Who can reach the API, from the configuration: the names it answers to (the Host check against
// DNS rebinding) and what an operator should hear at start about how exposed it is.
#include <string>
#include <vector>

#include "daemon_config.hpp"

namespace jetperf::daemon {

/// 127.0.0.0/8, ::1 or localhost.
bool is_loopback(const std::string& host);

/// The loopback names, the listen address (unless a wildcard), this machine's name (and
/// name.local) when it listens beyond loopback, then config.allowed_hosts.
std::vector<std::string> allowed_hosts(const daemon_config& config);

/// Warnings to log at start: listening beyond loopback while reads need no token.
std::vector<std::string> startup_warnings(const daemon_config& config);

}  // namespace jetperf::daemon
