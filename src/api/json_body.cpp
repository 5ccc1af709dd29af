#include <jetperf/api/json_body.hpp>

#include <algorithm>
#include <cctype>

#include <jetperf/api/http_error.hpp>
#include <jetperf/api/strict_json.hpp>
#include <jetperf/common/errors.hpp>

namespace jetperf::api {

namespace {

// Nesting depth of JSON text, counting brackets outside strings; stops early once too deep.
int nesting_depth(const std::string& text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

bool is_json_media_type(const std::string& content_type) {
  std::string type = content_type.substr(0, content_type.find(';'));
  auto not_space = [](unsigned char c) { return !std::isspace(c); };
  type.erase(type.begin(), std::find_if(type.begin(), type.end(), not_space));
  type.erase(std::find_if(type.rbegin(), type.rend(), not_space).base(), type.end());
  std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::tolower(c); });
  return type == "application/json";
}

nlohmann::json parse_json_object(const http_request& request) {
  if (!is_json_media_type(request.header("content-type")))
    throw http_error(415, "unsupported_media_type", "the body must be sent as Content-Type: application/json");
  if (request.body.size() > k_max_body_bytes)
    throw http_error(413, "payload_too_large",
                     "the body is larger than " + std::to_string(k_max_body_bytes) + " bytes");
  if (nesting_depth(request.body, k_max_json_depth) > k_max_json_depth)
    throw validation_error({}, "the JSON body is nested more than " + std::to_string(k_max_json_depth) + " levels deep",
                           "malformed_json");
  // Stricter than nlohmann's parse: duplicate keys and numbers beyond a double are refused.
  auto body = parse_strict_json(request.body);
  if (!body.is_object())
    throw validation_error({}, std::string("the body must be a JSON object, got ") + body.type_name(), "invalid_body");
  return body;
}

std::string dump_json(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace jetperf::api
