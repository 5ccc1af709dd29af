#include <jetperf/api/host_check.hpp>

#include <algorithm>
#include <cctype>

#include <jetperf/api/http_error.hpp>

namespace jetperf::api {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// "host[:port]" -> (host, port) with `default_port` when none is given.
std::pair<std::string, std::string> split_authority(const std::string& authority, const std::string& default_port) {
  std::string host = authority, port = default_port;
  if (!host.empty() && host.front() == '[') {
    const auto close = host.find(']');
    if (close == std::string::npos) return {lower(host), port};
    if (close + 1 < host.size() && host[close + 1] == ':') port = host.substr(close + 2);
    return {lower(host.substr(1, close - 1)), port};
  }
  const auto colon = host.rfind(':');
  // One colon only: a port; more are a bare IPv6 address.
  if (colon != std::string::npos && host.find(':') == colon) {
    port = host.substr(colon + 1);
    host.erase(colon);
  }
  return {lower(host), port};
}

}  // namespace

const std::vector<std::string>& loopback_names() {
  static const std::vector<std::string> names = {"localhost", "127.0.0.1", "::1"};
  return names;
}

std::string host_of_authority(const std::string& authority) { return split_authority(authority, "").first; }

void check_host(const http_request& request, const std::vector<std::string>& allowed) {
  if (allowed.empty()) return;
  const auto header = request.header("host");
  if (header.empty()) return;
  const auto host = host_of_authority(header);
  for (const auto& a : allowed)
    if (lower(a) == host) return;
  throw http_error(403, "host_not_allowed",
                   "this daemon does not answer to '" + host +
                       "'; add the name to allowed_hosts in jetperfd.conf if clients reach the board by it",
                   {}, "Host");
}

void check_origin(const http_request& request) {
  const auto origin = request.header("origin");
  if (origin.empty()) return;
  const auto refuse = [&] {
    throw http_error(403, "cross_origin",
                     "a change sent from the web page of another origin (" + origin + ") is refused", {}, "Origin");
  };
  constexpr const char* scheme = "http://";
  if (lower(origin).rfind(scheme, 0) != 0) refuse();
  const auto own = split_authority(request.header("host"), "80");
  const auto theirs = split_authority(origin.substr(std::char_traits<char>::length(scheme)), "80");
  if (own.first.empty() || own != theirs) refuse();
}

}  // namespace jetperf::api
