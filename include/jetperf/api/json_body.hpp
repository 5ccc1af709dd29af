#pragma once
// Reading a JSON request body: content type, size, nesting depth, syntax and shape.
#include <cstddef>

#include <nlohmann/json.hpp>

#include <jetperf/api/http_types.hpp>

namespace jetperf::api {

/// Bodies above this are refused here too (the HTTP layer also enforces its own limit).
constexpr std::size_t k_max_body_bytes = 1024 * 1024;
/// Deeper nesting is refused before parsing, so no recursive walk can exhaust the stack.
constexpr int k_max_json_depth = 64;

/// Throws http_error 415 (not application/json), 413 (too large), validation_error code
/// "malformed_json" (syntax, depth, a number beyond a double), "duplicate_key" (naming the
/// key's path) or "invalid_body" (not an object).
nlohmann::json parse_json_object(const http_request& request);

/// Whether a Content-Type value names application/json (parameters such as charset allowed).
bool is_json_media_type(const std::string& content_type);

/// Serializes a response body; invalid UTF-8 is replaced rather than thrown on.
std::string dump_json(const nlohmann::json& value);

}  // namespace jetperf::api
