#pragma once
// Bearer-token checks. The configured token is compared in constant time so that the time of a
// rejected request says nothing about how many leading bytes were right.
#include <string>
#include <string_view>

#include <jetperf/api/http_types.hpp>

namespace jetperf::api {

struct auth_settings;

/// Compares every byte of both strings; the running time depends only on the longer length.
bool constant_time_equals(std::string_view a, std::string_view b) noexcept;

/// The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or "" when
/// the header is missing or malformed.
std::string bearer_token(const http_request& request);

/// Whether the request must carry the token: every mutating method (anything but GET/HEAD), and
/// reads too when `require_for_reads`, except on routes marked public (GET /v1/health).
bool needs_token(const std::string& method, bool public_route, const auth_settings& settings);

/// Throws http_error 401 (missing or malformed, with WWW-Authenticate: Bearer) or 403 (wrong).
/// An empty configured token matches nothing: auth cannot be switched off by leaving it blank.
void check_token(const http_request& request, const auth_settings& settings);

}  // namespace jetperf::api
