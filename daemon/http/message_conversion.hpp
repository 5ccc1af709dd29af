#pragma once
// Beast messages <-> the API's plain http_request/http_response values.
#include <string>

#include <jetperf/api/http_types.hpp>

#include "http/beast.hpp"

namespace jetperf::daemon {

/// Fills `out` from a parsed request (header names lower-cased); moves the body out of `in`.
void to_api_request(http::request<http::string_body>& in, const std::string& remote,
                    api::http_request& out);

/// Sets the header fields of an answer on `out`: version, status, Server, Content-Type and the
/// extra headers (Location, Content-Disposition, ...).
void set_beast_header(const api::http_response& in, unsigned version, const std::string& server_name,
                      http::response_header<>& out);

/// Fills `out` (status, Content-Type, Server, extra headers, body, Content-Length, keep-alive)
/// from `in`, moving its body; `out` is cleared first so a session can reuse it.
void to_beast_response(api::http_response& in, unsigned version, bool keep_alive,
                       const std::string& server_name, http::response<http::string_body>& out);

}  // namespace jetperf::daemon
