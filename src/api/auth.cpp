#include <jetperf/api/auth.hpp>

#include <algorithm>
#include <cctype>

#include <jetperf/api/http_error.hpp>
#include <jetperf/api/router.hpp>

namespace jetperf::api {

bool constant_time_equals(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = std::max(a.size(), b.size());
  // volatile keeps the compiler from ending the loop at the first difference.
  volatile unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff = static_cast<unsigned char>(diff | (x ^ y));
  }
  return diff == 0;
}

std::string bearer_token(const http_request& request) {
  const std::string value = request.header("authorization");
  constexpr std::string_view scheme = "bearer";
  if (value.size() <= scheme.size() + 1) return {};
  for (std::size_t i = 0; i < scheme.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(value[i])) != scheme[i]) return {};
  std::size_t pos = scheme.size();
  if (value[pos] != ' ') return {};
  while (pos < value.size() && value[pos] == ' ') ++pos;
  std::size_t end = value.size();
  while (end > pos && value[end - 1] == ' ') --end;
  std::string token = value.substr(pos, end - pos);
  // RFC 6750 token68: visible ASCII without spaces.
  for (char c : token)
    if (c <= 0x20 || c >= 0x7f) return {};
  return token;
}

bool needs_token(const std::string& method, bool public_route, const auth_settings& settings) {
  const bool read = method == "GET" || method == "HEAD";
  if (!read) return true;
  return settings.require_for_reads && !public_route;
}

void check_token(const http_request& request, const auth_settings& settings) {
  const std::string token = bearer_token(request);
  if (token.empty()) {
    const bool present = !request.header("authorization").empty();
    throw http_error(401, "unauthorized",
                     present ? "malformed Authorization header (expected 'Bearer <token>')"
                             : "this request needs an 'Authorization: Bearer <token>' header",
                     {{"WWW-Authenticate", present ? "Bearer realm=\"jetperf\", error=\"invalid_request\""
                                                   : "Bearer realm=\"jetperf\""}});
  }
  // An empty configured token never matches: a blank config must not open the API.
  if (settings.token.empty() || !constant_time_equals(token, settings.token))
    throw http_error(403, "forbidden", "the bearer token is not valid");
}

}  // namespace jetperf::api
