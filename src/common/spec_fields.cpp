#include <jetperf/common/spec_fields.hpp>

#include <cmath>
#include <sstream>

#include <jetperf/common/errors.hpp>

namespace jetperf {

namespace {
std::string field_name(const char* name) { return std::string("spec.") + name; }

std::string format_number(double v) {
  std::ostringstream ss;
  ss << v;
  return ss.str();
}
}  // namespace

void reject_unknown_fields(const nlohmann::json& spec, std::initializer_list<const char*> allowed) {
  for (auto it = spec.begin(); it != spec.end(); ++it) {
    bool known = false;
    for (const char* a : allowed) known = known || it.key() == a;
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
      throw validation_error("spec." + it.key(), "unknown field '" + it.key() + "' (known: " + list + ")",
                             "unknown_field");
    }
  }
}

double number_field(const nlohmann::json& spec, const char* name, double min, double max, double fallback) {
  auto it = spec.find(name);
  if (it == spec.end()) return fallback;
  if (!it->is_number()) throw validation_error(field_name(name), std::string(name) + " must be a number");
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < min || v > max)
    throw validation_error(field_name(name), std::string(name) + " must be between " + format_number(min) +
                                                 " and " + format_number(max) + ", got " + format_number(v),
                           "out_of_range");
  return v;
}

std::int64_t integer_field(const nlohmann::json& spec, const char* name, std::int64_t min, std::int64_t max,
                           std::int64_t fallback) {
  auto it = spec.find(name);
  if (it == spec.end()) return fallback;
  std::int64_t v = 0;
  if (it->is_number_integer()) {
    if (it->is_number_unsigned() && it->get<std::uint64_t>() > static_cast<std::uint64_t>(max))
      throw validation_error(field_name(name), std::string(name) + " must be at most " + std::to_string(max),
                             "out_of_range");
    v = it->get<std::int64_t>();
  } else if (it->is_number_float() && std::isfinite(it->get<double>()) &&
             std::floor(it->get<double>()) == it->get<double>() && std::fabs(it->get<double>()) < 9e15) {
    v = static_cast<std::int64_t>(it->get<double>());
  } else {
    throw validation_error(field_name(name), std::string(name) + " must be an integer");
  }
  if (v < min || v > max)
    throw validation_error(field_name(name), std::string(name) + " must be between " + std::to_string(min) +
                                                 " and " + std::to_string(max) + ", got " + std::to_string(v),
                           "out_of_range");
  return v;
}

std::string string_field(const nlohmann::json& spec, const char* name, const std::string& fallback) {
  auto it = spec.find(name);
  if (it == spec.end()) return fallback;
  if (!it->is_string()) throw validation_error(field_name(name), std::string(name) + " must be a string");
  return it->get<std::string>();
}

}  // namespace jetperf
