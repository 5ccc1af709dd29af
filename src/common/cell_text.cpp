#include <jetperf/common/cell_text.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>
#include <vector>

namespace jetperf {

namespace {

// The fewest significant digits that read back as `v` (v finite and > 0), and the decimal
// exponent of the first: v ~ 0.d1d2...dk x 10^point. std::to_chars for doubles is past gcc 9,
// so printf's correctly rounded %e at each precision until one reads back.
void shortest_digits(double v, std::string& digits, int& point) {
  char buf[40];
  for (int precision = 0; precision <= 16; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  // buf is "d.ddde+XX" (or "de+XX" at precision 0).
  const std::string text(buf);
  const auto e = text.find('e');
  digits.clear();
  for (std::size_t i = 0; i < e; ++i)
    if (text[i] != '.') digits += text[i];
  point = std::atoi(text.c_str() + e + 1) + 1;
}

// "e+20", "e-05": a sign always and at least two digits, as printf's %g and nlohmann write it.
std::string exponent_text(int e) {
  std::string out = e < 0 ? "e-" : "e+";
  const int magnitude = e < 0 ? -e : e;
  if (magnitude < 10) out += '0';
  return out + std::to_string(magnitude);
}

}  // namespace

std::string json_number_text(double v) {
  if (!std::isfinite(v)) return "null";
  std::string out = std::signbit(v) ? "-" : "";
  v = std::fabs(v);
  if (v == 0) return out + "0.0";
  std::string digits;
  int point = 0;
  shortest_digits(v, digits, point);
  const int k = static_cast<int>(digits.size());
  // The bounds nlohmann's writer uses (its kMinExp -4 and kMaxExp 15, digits10 of a double).
  constexpr int min_point = -4, max_point = 15;
  if (k <= point && point <= max_point) return out + digits + std::string(static_cast<std::size_t>(point - k), '0') + ".0";
  if (0 < point && point <= max_point) return out + digits.substr(0, static_cast<std::size_t>(point)) + "." + digits.substr(static_cast<std::size_t>(point));
  if (min_point < point && point <= 0) return out + "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
  out += digits.substr(0, 1);
  if (k > 1) out += "." + digits.substr(1);
  return out + exponent_text(point - 1);
}

std::string json_quoted(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

std::string json_text(const cell& c) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same<T, std::monostate>::value) {
          return "null";
        } else if constexpr (std::is_same<T, bool>::value) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same<T, std::int64_t>::value) {
          return std::to_string(v);
        } else if constexpr (std::is_same<T, double>::value) {
          return json_number_text(v);
        } else if constexpr (std::is_same<T, std::string>::value) {
          return json_quoted(v);
        } else if constexpr (std::is_same<T, cell_list>::value) {
          std::string out = "[";
          for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + json_text(v[i]);
          return out + "]";
        } else {
          // A JSON object holds its keys sorted: the text is the same whatever order they were set in.
          std::vector<const record::entry*> entries;
          for (const auto& e : v) entries.push_back(&e);
          std::sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
          std::string out = "{";
          for (std::size_t i = 0; i < entries.size(); ++i)
            out += (i ? "," : "") + json_quoted(entries[i]->first) + ":" + json_text(entries[i]->second);
          return out + "}";
        }
      },
      c.value());
}

}  // namespace jetperf
