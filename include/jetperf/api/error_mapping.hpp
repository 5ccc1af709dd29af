#pragma once
// The one place that maps exceptions to an HTTP status and the JSON error body
// {"error":{"code","message","field"}} ("field" is null when it does not apply).
#include <exception>
#include <string>

#include <jetperf/api/http_types.hpp>

namespace jetperf::api {

/// validation_error 400, not_found 404, conflict 409, unavailable 503, platform_error 502,
/// store_error 500, http_error its own status, anything else 500 with a generic message (the
/// detail goes to the log). Never throws.
http_response error_response(std::exception_ptr error) noexcept;

/// The error response {"error":{"code","message","field"}} itself ("field" null when empty), for
/// errors found before any route runs (the HTTP layer's own: limits, malformed requests).
http_response error_body(int status, const std::string& code, const std::string& message,
                         const std::string& field = {});

}  // namespace jetperf::api
