#include "http/message_conversion.hpp"

#include <cctype>

namespace jetperf::daemon {

void to_api_request(http::request<http::string_body>& in, const std::string& remote,
                    api::http_request& out) {
  out.method.assign(in.method_string().data(), in.method_string().size());
  out.target.assign(in.target().data(), in.target().size());
  out.headers.clear();
  for (const auto& field : in) {
    std::string name(field.name_string().data(), field.name_string().size());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value(field.value().data(), field.value().size());
    // Repeated headers are joined as RFC 9110 allows for list-valued fields.
    auto [it, inserted] = out.headers.emplace(std::move(name), value);
    if (!inserted) it->second += ", " + value;
  }
  out.body = std::move(in.body());
  out.remote = remote;
}

void set_beast_header(const api::http_response& in, unsigned version, const std::string& server_name,
                      http::response_header<>& out) {
  out.version(version);
  out.result(static_cast<unsigned>(in.status));
  out.set(http::field::server, server_name);
  if (!in.content_type.empty()) out.set(http::field::content_type, in.content_type);
  for (const auto& [name, value] : in.headers) out.insert(name, value);
}

void to_beast_response(api::http_response& in, unsigned version, bool keep_alive,
                       const std::string& server_name, http::response<http::string_body>& out) {
  out.clear();
  set_beast_header(in, version, server_name, out.base());
  out.body() = std::move(in.body);
  out.keep_alive(keep_alive);
  out.prepare_payload();
}

}  // namespace jetperf::daemon
