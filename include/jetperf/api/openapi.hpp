#pragma once
// proto/openapi.json, the API contract, embedded at build time (cmake/embed_text.cmake) and
// served as is by GET /v1/openapi.json.
#include <string_view>

namespace jetperf::api {

std::string_view openapi_json();

}  // namespace jetperf::api
