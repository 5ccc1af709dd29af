#include "http/error_response.hpp"

#include <nlohmann/json.hpp>

namespace jetperf::daemon {

api::http_response error_response(int status, const std::string& code, const std::string& message,
                                  const std::string& field) {
  nlohmann::json err = {{"code", code}, {"message", message}};
  if (!field.empty()) err["field"] = field;
  api::http_response res;
  res.status = status;
  res.body = nlohmann::json{{"error", std::move(err)}}.dump();
  return res;
}

}  // namespace jetperf::daemon
