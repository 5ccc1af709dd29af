#include <jetperf/api/error_mapping.hpp>

#include <spdlog/spdlog.h>

#include <jetperf/api/http_error.hpp>
#include <jetperf/api/json_body.hpp>
#include <jetperf/common/errors.hpp>

namespace jetperf::api {

http_response error_body(int status, const std::string& code, const std::string& message, const std::string& field) {
  http_response res;
  res.status = status;
  nlohmann::json body = {{"error",
                          {{"code", code},
                           {"message", message},
                           {"field", field.empty() ? nlohmann::json(nullptr) : nlohmann::json(field)}}}};
  res.body = dump_json(body);
  return res;
}

namespace {

// The status of a typed jetperf error; the most derived class decides.
int status_of(const error& e) {
  if (auto* h = dynamic_cast<const http_error*>(&e)) return h->status();
  if (dynamic_cast<const disk_full*>(&e)) return 507;
  if (dynamic_cast<const validation_error*>(&e)) return 400;
  if (dynamic_cast<const not_found*>(&e)) return 404;
  if (dynamic_cast<const conflict*>(&e)) return 409;
  if (dynamic_cast<const unavailable*>(&e)) return 503;
  if (dynamic_cast<const platform_error*>(&e)) return 502;
  if (dynamic_cast<const store_error*>(&e)) return 500;
  // The server's own data is damaged: nothing the client can change in the request fixes it.
  if (dynamic_cast<const corrupt_record*>(&e)) return 500;
  return 500;
}

// "disk_full: the file system holding /var/lib/jetperf/jetperf.db is full (SQLite ...)" without
// the SQL: what to free, not how the daemon writes.
std::string disk_full_message(const std::string& what) {
  const auto cut = what.find(" (SQLite ");
  return (cut == std::string::npos ? what : what.substr(0, cut)) + ": nothing was stored; free space there and retry";
}

}  // namespace

http_response error_response(std::exception_ptr error_ptr) noexcept {
  try {
    try {
      std::rethrow_exception(error_ptr);
    } catch (const error& e) {
      const int status = status_of(e);
      if (status >= 500) spdlog::error("api: {} ({}): {}", status, e.code(), e.what());
      // Storage failures are internal: their detail goes to the log, not to the client; a full
      // file system is the client's to know (someone must make room), named by the database.
      auto res = dynamic_cast<const disk_full*>(&e)
                     ? error_body(status, "insufficient_storage", disk_full_message(e.what()), {})
                 : dynamic_cast<const store_error*>(&e)
                     ? error_body(status, e.code(), "storage error (see the daemon log)", {})
                     : error_body(status, e.code(), e.what(), e.field());
      if (auto* h = dynamic_cast<const http_error*>(&e))
        for (const auto& header : h->headers()) res.headers.push_back(header);
      return res;
    } catch (const std::exception& e) {
      spdlog::error("api: unexpected exception: {}", e.what());
      return error_body(500, "internal", "internal error (see the daemon log)", {});
    } catch (...) {
      spdlog::error("api: unexpected non-standard exception");
      return error_body(500, "internal", "internal error (see the daemon log)", {});
    }
  } catch (...) {
    // Building the error body itself failed (out of memory): a fixed answer needs no allocation
    // beyond the string below.
    http_response res;
    res.status = 500;
    try {
      res.body = R"({"error":{"code":"internal","message":"internal error","field":null}})";
    } catch (...) {
    }
    return res;
  }
}

}  // namespace jetperf::api
