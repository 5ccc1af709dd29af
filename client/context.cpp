#include <cctype>
#include <cmath>
#include <fstream>

#include "cli_error.hpp"
#include "command.hpp"
#include "summary_tables.hpp"

namespace jetperf::client {

context::context(settings s)
    : settings_(std::move(s)),
      http_(settings_.target, settings_.token,
            std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(settings_.timeout_s * 1000.0)))) {}

void throw_if_error(const http_reply& reply) {
  if (reply.status >= 200 && reply.status < 300) return;
  std::string message;
  std::string field;
  const auto j = nlohmann::json::parse(reply.body, nullptr, false);
  if (!j.is_discarded() && j.is_object() && j.contains("error") && j["error"].is_object()) {
    const auto& e = j["error"];
    if (e.contains("message") && e["message"].is_string()) message = e["message"].get<std::string>();
    if (e.contains("field") && e["field"].is_string()) field = e["field"].get<std::string>();
  }
  if (message.empty()) {
    message = "HTTP " + std::to_string(reply.status);
    if (!reply.body.empty() && reply.body.size() < 200 && reply.body.find('\n') == std::string::npos)
      message += ": " + reply.body;
  }
  if (!field.empty()) message += " (field: " + field + ")";
  // The daemon speaks of HTTP headers; a user of this client gives the token otherwise.
  if (reply.status == 401)
    message += "; give this client the token with --token, $JETPERF_TOKEN or `token =` in ~/.config/jetperf/config "
               "(on the board: sudo cat /var/lib/jetperf/token)";
  throw cli_error(exit_failure, message);
}

nlohmann::json context::call(const std::string& method, const std::string& target, const std::string& body) {
  const auto reply = http_.request(method, target, body);
  throw_if_error(reply);
  auto j = nlohmann::json::parse(reply.body, nullptr, false);
  if (j.is_discarded())
    throw cli_error(exit_failure, "the server sent invalid JSON for " + method + " " + target);
  return j;
}

std::vector<summary_table> kind_summary_tables(context& ctx, const std::string& kind) {
  if (kind.empty()) return {};
  const auto reply = ctx.http().request("GET", "/v1/kinds/" + url_encode(kind));
  if (reply.status == 404) return {};
  throw_if_error(reply);
  return parse_summary_tables(nlohmann::json::parse(reply.body, nullptr, false));
}

std::string context::call_text(const std::string& target) {
  auto reply = http_.request("GET", target);
  throw_if_error(reply);
  return std::move(reply.body);
}

std::uint64_t context::download(const std::string& target, std::ostream& out) {
  std::uint64_t bytes = 0;
  const auto reply = http_.download(target, [&](const char* data, std::size_t size) {
    out.write(data, static_cast<std::streamsize>(size));
    bytes += size;
    return static_cast<bool>(out);
  });
  throw_if_error(reply);
  if (!out.flush()) throw cli_error(exit_usage, "cannot write the answer to " + target);
  return bytes;
}

std::string url_encode(const std::string& value) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : value) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw cli_error(exit_usage, "cannot write '" + path + "'");
}

}  // namespace jetperf::client
