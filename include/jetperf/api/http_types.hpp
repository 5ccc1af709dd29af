#pragma once
// The API layer's view of HTTP: plain values, no sockets and no Beast types, so every route is
// testable without a network. daemon/http converts Beast messages to and from these.
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <jetperf/api/body_source.hpp>
#include <jetperf/api/sse_channel.hpp>

namespace jetperf::api {

struct http_request {
  std::string method;  ///< "GET", "POST", ...
  std::string target;  ///< path plus query, e.g. "/v1/jobs?state=queued"
  std::map<std::string, std::string> headers;  ///< names in lower case
  std::string body;
  /// Set by the HTTP layer alone, for a route whose body streams to disk (route_traits::
  /// body_to_file): the daemon-named file holding the body, which `body` then leaves empty.
  std::string body_file;
  std::string remote;  ///< peer address, for logs

  /// Header value by lower-case name, or "" when absent.
  std::string header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
};

struct http_response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  ///< extra headers (Location, Allow, ...)
  /// Set for Server-Sent Events: the session writes the headers, then frames from the channel
  /// until the channel is finished or the client goes away.
  std::shared_ptr<sse_channel> stream;
  /// Set for a body too large to hold (`body` then stays empty): the session writes the headers,
  /// then the source's pieces as they come (chunked for HTTP/1.1), and closes the connection.
  std::shared_ptr<body_source> chunks;
};

}  // namespace jetperf::api
