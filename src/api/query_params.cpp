#include <jetperf/api/query_params.hpp>

#include <algorithm>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include <jetperf/common/errors.hpp>

namespace jetperf::api {

namespace {
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::pair<std::string, std::string> split_target(std::string_view target) {
  const auto q = target.find('?');
  if (q == std::string_view::npos) return {std::string(target), {}};
  auto query = target.substr(q + 1);
  // A fragment never reaches a server, but a hand-written target may carry one.
  if (auto f = query.find('#'); f != std::string_view::npos) query = query.substr(0, f);
  return {std::string(target.substr(0, q)), std::string(query)};
}

std::string percent_decode(std::string_view text, const std::string& field) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%') {
      const bool complete = i + 2 < text.size();
      const int hi = complete ? hex_value(text[i + 1]) : -1;
      const int lo = complete ? hex_value(text[i + 2]) : -1;
      if (hi < 0 || lo < 0)
        throw validation_error(field, "malformed percent escape in query parameter '" + field + "'",
                               "malformed_query");
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

query_params::query_params(std::string_view query) {
  std::size_t start = 0;
  while (start <= query.size()) {
    auto end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    const auto part = query.substr(start, end - start);
    if (!part.empty()) {
      const auto eq = part.find('=');
      const auto raw_name = part.substr(0, eq);
      const std::string name = percent_decode(raw_name, std::string(raw_name));
      const std::string value = eq == std::string_view::npos ? std::string() : percent_decode(part.substr(eq + 1), name);
      if (!values_.emplace(name, value).second)
        throw validation_error(name, "query parameter '" + name + "' given more than once", "duplicate_parameter");
    }
    start = end + 1;
  }
}

void query_params::reject_unknown(std::initializer_list<const char*> allowed) const {
  for (const auto& kv : values_) {
    bool known = false;
    for (const char* a : allowed) known = known || kv.first == a;
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
      throw validation_error(kv.first,
                             "unknown query parameter '" + kv.first + "'" +
                                 (list.empty() ? std::string(" (this route takes none)") : " (known: " + list + ")"),
                             "unknown_parameter");
    }
  }
}

std::optional<std::string> query_params::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::int64_t query_params::integer(const std::string& name, std::int64_t min, std::int64_t max,
                                   std::int64_t fallback) const {
  auto text = get(name);
  if (!text) return fallback;
  auto v = parse_int64(*text);
  if (!v)
    throw validation_error(name, "query parameter '" + name + "' must be an integer, got '" + *text + "'");
  if (*v < min || *v > max)
    throw validation_error(name, "query parameter '" + name + "' must be between " + std::to_string(min) +
                                     " and " + std::to_string(max) + ", got " + std::to_string(*v),
                           "out_of_range");
  return *v;
}

double query_params::number(const std::string& name, double min, double max, double fallback) const {
  auto text = get(name);
  if (!text) return fallback;
  // Plain decimals only: "nan", "inf", hex floats and exponents that strtod takes are refused.
  const bool plain = !text->empty() && text->size() <= 32 && text->find_first_not_of("0123456789.") == std::string::npos &&
                     std::count(text->begin(), text->end(), '.') <= 1 && *text != ".";
  if (!plain) throw validation_error(name, "query parameter '" + name + "' must be a decimal number, got '" + *text + "'");
  const double v = std::strtod(text->c_str(), nullptr);
  if (v < min || v > max)
    throw validation_error(name, "query parameter '" + name + "' must be between " + fmt::format("{:g}", min) +
                                     " and " + fmt::format("{:g}", max) + ", got " + *text,
                           "out_of_range");
  return v;
}

std::optional<std::int64_t> parse_int64(std::string_view text) {
  bool negative = false;
  std::size_t i = 0;
  if (!text.empty() && text[0] == '-') {
    negative = true;
    i = 1;
  }
  if (i >= text.size() || text.size() - i > 19) return std::nullopt;
  // Accumulate as a negative number so that INT64_MIN fits.
  std::int64_t v = 0;
  constexpr auto lowest = std::numeric_limits<std::int64_t>::min();
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return std::nullopt;
    const int d = c - '0';
    if (v < (lowest + d) / 10) return std::nullopt;
    v = v * 10 - d;
  }
  if (negative) return v;
  if (v == lowest) return std::nullopt;
  return -v;
}

}  // namespace jetperf::api
