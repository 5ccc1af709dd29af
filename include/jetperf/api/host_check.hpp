#pragma once
// Who may talk to the API through a browser. A web page elsewhere can point a name it controls at
// the board's address (DNS rebinding) and then read the API as its own origin; the Host header
// still carries that name, so only the names the board is known by are served. A page of another
// origin may also send a form or fetch to the board: a change with an Origin header that is not
// the API's own is refused. Clients that are not browsers (curl, jetperf) send no Origin.
#include <string>
#include <vector>

#include <jetperf/api/http_types.hpp>

namespace jetperf::api {

/// "localhost", "127.0.0.1", "::1": what every daemon answers to.
const std::vector<std::string>& loopback_names();

/// The host part of a Host header or an authority ("[::1]:7070" -> "::1", "Orin1:7070" -> "orin1").
std::string host_of_authority(const std::string& authority);

/// Throws http_error 403 (code host_not_allowed, field Host) when the request names a host not
/// in `allowed` (compared without case); a request without a Host header (HTTP/1.0) passes.
/// An empty `allowed` checks nothing.
void check_host(const http_request& request, const std::vector<std::string>& allowed);

/// For a request that changes something: throws http_error 403 (code cross_origin, field Origin)
/// when it carries an Origin header other than the API's own (the scheme http and the Host
/// header's host and port), "null" included.
void check_origin(const http_request& request);

}  // namespace jetperf::api
