#pragma once
// The query string of a request target, percent-decoded, with strict readers that throw
// validation_error naming the parameter.
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace jetperf::api {

/// Splits "/path?query" into its two parts (the query without '?').
std::pair<std::string, std::string> split_target(std::string_view target);

/// Decodes %XX and '+' (space). Throws validation_error(field) on a malformed escape.
std::string percent_decode(std::string_view text, const std::string& field);

class query_params {
 public:
  query_params() = default;
  /// Throws validation_error naming the parameter for a malformed escape or a repeated name.
  explicit query_params(std::string_view query);

  /// Throws validation_error naming the first parameter not in `allowed`.
  void reject_unknown(std::initializer_list<const char*> allowed) const;
  std::optional<std::string> get(const std::string& name) const;
  /// A decimal integer in [min, max] (digits only, optional leading '-'); `fallback` when absent.
  std::int64_t integer(const std::string& name, std::int64_t min, std::int64_t max, std::int64_t fallback) const;
  /// A decimal number in [min, max] (digits, one '.', no exponent, no sign); `fallback` when absent.
  double number(const std::string& name, double min, double max, double fallback) const;
  const std::map<std::string, std::string>& all() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

/// Strict decimal parse of the whole text; nullopt on anything else (sign, spaces, overflow).
std::optional<std::int64_t> parse_int64(std::string_view text);

}  // namespace jetperf::api
