#pragma once
// JSON text to a value, stricter than nlohmann::json::parse: a key twice in one object and a
// number beyond a double's range are refused as malformed, naming where they are.
#include <string>

#include <nlohmann/json.hpp>

namespace jetperf::api {

/// Parses `text` (one JSON value). Throws validation_error with code "malformed_json" for a
/// syntax error or a number out of range, and "duplicate_key" for a key given twice in one
/// object; the field is the value's path ("spec.sizes[2]"), empty for the whole body.
nlohmann::json parse_strict_json(const std::string& text);

}  // namespace jetperf::api
