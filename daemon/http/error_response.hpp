#pragma once
// Error responses the HTTP layer produces itself (before the router sees a request), in the
// API's error shape {"error":{"code","message","field"}}.
#include <string>

#include <jetperf/api/http_types.hpp>

namespace jetperf::daemon {

/// A JSON error response; `field` is omitted from the body when empty.
api::http_response error_response(int status, const std::string& code, const std::string& message,
                                  const std::string& field = {});

}  // namespace jetperf::daemon
