#include <jetperf/common/csv_quote.hpp>

namespace jetperf {

std::string csv_quote(const std::string& raw) {
  // A spreadsheet runs a cell that starts with = + - @ (or tab, CR) as a formula: names come from
  // users (networks, layers, tags, traces), so such text is kept text with a leading apostrophe (OWASP).
  const std::string text = !raw.empty() && std::string("=+-@\t\r").find(raw.front()) != std::string::npos ? "'" + raw : raw;
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

}  // namespace jetperf
