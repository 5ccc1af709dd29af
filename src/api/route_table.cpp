#include <jetperf/api/route_table.hpp>

#include <stdexcept>

#include <jetperf/api/json_body.hpp>
#include <jetperf/common/errors.hpp>

namespace jetperf::api {

namespace {

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> out;
  if (path.empty() || path[0] != '/') return out;
  std::size_t start = 1;
  for (;;) {
    const auto slash = path.find('/', start);
    out.push_back(path.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return out;
}

bool is_placeholder(const std::string& segment) {
  return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

bool matches(const route& r, const std::vector<std::string>& segments, std::map<std::string, std::string>& params) {
  const bool rest = r.traits.rest_of_path;
  if (rest ? segments.size() < r.segments.size() : r.segments.size() != segments.size()) return false;
  std::map<std::string, std::string> found;
  for (std::size_t i = 0; i < r.segments.size(); ++i) {
    const auto& p = r.segments[i];
    if (is_placeholder(p)) {
      if (segments[i].empty()) return false;
      std::string value = segments[i];
      if (rest && i + 1 == r.segments.size()) {
        for (std::size_t j = i + 1; j < segments.size(); ++j) {
          if (segments[j].empty()) return false;
          value += "/" + segments[j];
        }
      }
      found[p.substr(1, p.size() - 2)] = std::move(value);
    } else if (p != segments[i]) {
      return false;
    }
  }
  params = std::move(found);
  return true;
}

}  // namespace

void route_table::add(std::string method, std::string pattern, route_handler handler, route_traits traits) {
  if (pattern.empty() || pattern[0] != '/') throw std::invalid_argument("route pattern must start with '/': " + pattern);
  for (const auto& r : routes_)
    if (r.method == method && r.pattern == pattern)
      throw std::invalid_argument("duplicate route " + method + " " + pattern);
  route r;
  r.method = std::move(method);
  r.segments = split_path(pattern);
  r.pattern = std::move(pattern);
  r.handler = std::move(handler);
  r.traits = traits;
  if (r.traits.rest_of_path && (r.segments.empty() || !is_placeholder(r.segments.back())))
    throw std::invalid_argument("a rest_of_path route must end in a {placeholder}: " + r.pattern);
  routes_.push_back(std::move(r));
}

route_table::match_result route_table::match(const std::string& method, const std::string& path) const {
  match_result result;
  const auto segments = split_path(path);
  if (segments.empty()) return result;
  for (const auto& r : routes_) {
    std::map<std::string, std::string> params;
    if (!matches(r, segments, params)) continue;
    // HEAD is GET without the body (RFC 9110 9.3.2): every GET route answers it.
    if (r.method == method || (method == "HEAD" && r.method == "GET")) {
      result.found = &r;
      result.params = std::move(params);
      result.allowed.clear();
      return result;
    }
    result.allowed.push_back(r.method);
    if (r.method == "GET") result.allowed.push_back("HEAD");
  }
  return result;
}

nlohmann::json route_request::json_body() const { return parse_json_object(http); }

std::int64_t route_request::id_param(const std::string& name) const {
  auto it = path_params.find(name);
  const std::string text = it == path_params.end() ? std::string() : it->second;
  // Digits only: "+1", "01x", "-3" and ids beyond int64 are all refused.
  auto id = text.empty() || text[0] == '-' ? std::nullopt : parse_int64(text);
  if (!id || *id <= 0)
    throw validation_error(name, "'" + text + "' is not a valid " + name + " (expected a positive integer)");
  return *id;
}

http_response json_response(int status, const nlohmann::json& body) {
  http_response res;
  res.status = status;
  res.body = dump_json(body);
  return res;
}

}  // namespace jetperf::api
