#include <jetperf/common/spec_fields.hpp>

#include <cmath>
#include <sstream>
#include <stdexcept>

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

const char* to_string(spec_type t) {
  switch (t) {
    case spec_type::number: return "number";
    case spec_type::integer: return "integer";
    case spec_type::text: return "text";
    case spec_type::boolean: return "boolean";
    case spec_type::list: return "list";
    case spec_type::object: return "object";
  }
  return "number";
}

const spec_field& find_spec_field(const std::vector<spec_field>& fields, const std::string& name) {
  for (const auto& f : fields)
    if (f.name == name) return f;
  throw std::logic_error("spec field '" + name + "' is not declared");
}

void reject_unknown_fields(const nlohmann::json& spec, const std::vector<spec_field>& fields) {
  for (auto it = spec.begin(); it != spec.end(); ++it) {
    bool known = false;
    for (const auto& f : fields) known = known || it.key() == f.name;
    if (!known) {
      std::string list;
      for (const auto& f : fields) list += (list.empty() ? "" : ", ") + f.name;
      throw validation_error("spec." + it.key(), "unknown field '" + it.key() + "' (known: " + list + ")",
                             "unknown_field");
    }
  }
}

namespace {
// An explicit null means "the default", as absence does.
bool absent(const nlohmann::json& spec, const spec_field& f) {
  auto it = spec.find(f.name);
  return it == spec.end() || it->is_null();
}
}  // namespace

double number_field(const nlohmann::json& spec, const spec_field& f, double fallback) {
  if (absent(spec, f)) return fallback;
  return number_field(spec, f.name.c_str(), f.min, f.max, fallback);
}

double number_field(const nlohmann::json& spec, const spec_field& f) {
  return number_field(spec, f, f.default_value.is_number() ? f.default_value.get<double>() : 0.0);
}

std::int64_t integer_field(const nlohmann::json& spec, const spec_field& f, std::int64_t fallback) {
  if (absent(spec, f)) return fallback;
  return integer_field(spec, f.name.c_str(), static_cast<std::int64_t>(f.min), static_cast<std::int64_t>(f.max),
                       fallback);
}

std::int64_t integer_field(const nlohmann::json& spec, const spec_field& f) {
  return integer_field(spec, f, f.default_value.is_number() ? f.default_value.get<std::int64_t>() : 0);
}

std::string string_field(const nlohmann::json& spec, const spec_field& f, const std::string& fallback) {
  const auto v = absent(spec, f) ? fallback : string_field(spec, f.name.c_str(), fallback);
  if (f.choices.empty()) return v;
  for (const auto& c : f.choices)
    if (v == c) return v;
  std::string list;
  for (const auto& c : f.choices) list += (list.empty() ? "\"" : "\", \"") + c;
  throw validation_error(field_name(f.name.c_str()),
                         f.name + " must be one of " + list + "\", got \"" + v + "\"");
}

std::string string_field(const nlohmann::json& spec, const spec_field& f) {
  return string_field(spec, f, f.default_value.is_string() ? f.default_value.get<std::string>() : std::string());
}

bool bool_field(const nlohmann::json& spec, const spec_field& f) {
  if (absent(spec, f)) return f.default_value.is_boolean() && f.default_value.get<bool>();
  if (!spec[f.name].is_boolean()) throw validation_error(field_name(f.name.c_str()), f.name + " must be true or false");
  return spec[f.name].get<bool>();
}

nlohmann::json to_json(const spec_field& f) {
  nlohmann::json j = {{"name", f.name}, {"type", to_string(f.type)}, {"default", f.default_value},
                      {"description", f.description}};
  if (f.type == spec_type::number || f.type == spec_type::integer) {
    j["min"] = f.min;
    j["max"] = f.max;
  }
  if (!f.choices.empty()) j["choices"] = f.choices;
  return j;
}

}  // namespace jetperf
