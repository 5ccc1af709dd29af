#include <jetperf/api/router.hpp>

#include <jetperf/api/error_mapping.hpp>
#include <jetperf/api/host_check.hpp>
#include <jetperf/api/http_error.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/common/clock.hpp>

namespace jetperf::api {

router::router(services s)
    : services_(std::move(s)),
      streams_(std::make_unique<sse_subscriptions>()),
      started_monotonic_ns_(monotonic_ns()) {
  register_all_routes(routes_);
}

route_request router::checked(const http_request& request, const route*& found) const {
  check_host(request, services_.auth.allowed_hosts);
  auto [path, query] = split_target(request.target);
  auto m = routes_.match(request.method, path);
  if (!m.found) {
    if (m.allowed.empty()) throw http_error(404, "not_found", "no such resource: " + path);
    std::string allow;
    for (const auto& method : m.allowed) allow += (allow.empty() ? "" : ", ") + method;
    throw http_error(405, "method_not_allowed", request.method + " is not allowed on " + path + " (allowed: " + allow + ")",
                     {{"Allow", allow}});
  }
  if (request.method != "GET" && request.method != "HEAD") check_origin(request);
  if (needs_token(request.method, m.found->traits.public_read, services_.auth)) check_token(request, services_.auth);
  found = m.found;
  return route_request{request, path, std::move(m.params), query_params(query), services_, *streams_,
                       started_monotonic_ns_};
}

http_response router::handle(const http_request& request) const {
  try {
    const route* found = nullptr;
    const auto r = checked(request, found);
    return found->handler(r);
  } catch (...) {
    return error_response(std::current_exception());
  }
}

bool router::authenticated(const http_request& request) const {
  const auto token = bearer_token(request);
  return !token.empty() && !services_.auth.token.empty() && constant_time_equals(token, services_.auth.token);
}

bool router::body_to_file(const http_request& request) const {
  const auto m = routes_.match(request.method, split_target(request.target).first);
  return m.found && m.found->traits.body_to_file;
}

std::optional<http_response> router::admit(const http_request& request) const {
  try {
    const route* found = nullptr;
    const auto r = checked(request, found);
    if (found->traits.admit) found->traits.admit(r);
    return std::nullopt;
  } catch (...) {
    return error_response(std::current_exception());
  }
}

bool router::may_wait(const http_request& request) const {
  const auto m = routes_.match(request.method, split_target(request.target).first);
  return m.found && m.found->traits.may_wait;
}

}  // namespace jetperf::api
