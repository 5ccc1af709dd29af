#pragma once
// Errors that only exist at the HTTP boundary (401, 403, 404 for a path, 405, 413, 415). They
// carry their status and extra headers so that error_mapping stays the one place that turns
// exceptions into responses.
#include <string>
#include <utility>
#include <vector>

#include <jetperf/common/errors.hpp>

namespace jetperf::api {

class http_error : public error {
 public:
  using header_list = std::vector<std::pair<std::string, std::string>>;

  /// `code` is the machine-readable error code of the body, e.g. "unauthorized".
  http_error(int status, std::string code, const std::string& message, header_list headers = {},
             std::string field = {})
      : error(std::move(code), message, std::move(field)), status_(status), headers_(std::move(headers)) {}
  int status() const noexcept { return status_; }
  const header_list& headers() const noexcept { return headers_; }

 private:
  int status_;
  header_list headers_;
};

}  // namespace jetperf::api
