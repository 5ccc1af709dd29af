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

template <class Known>
void reject_unknown(const record& spec, const Known& is_known, const std::string& known_list) {
  for (const auto& e : spec)
    if (!is_known(e.first))
      throw validation_error("spec." + e.first, "unknown field '" + e.first + "' (known: " + known_list + ")",
                             "unknown_field");
}
}  // namespace

const cell* given_field(const record& spec, const std::string& name) {
  const auto* c = spec.find(name);
  return c && !c->is_null() ? c : nullptr;
}

void reject_unknown_fields(const record& spec, std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
  reject_unknown(
      spec,
      [&](const std::string& key) {
        for (const char* a : allowed)
          if (key == a) return true;
        return false;
      },
      list);
}

double number_field(const record& spec, const char* name, double min, double max, double fallback) {
  const auto* c = spec.find(name);
  if (!c) return fallback;
  if (!c->is_number()) throw validation_error(field_name(name), std::string(name) + " must be a number");
  const double v = *c->number();
  if (!std::isfinite(v) || v < min || v > max)
    throw validation_error(field_name(name), std::string(name) + " must be between " + format_number(min) +
                                                 " and " + format_number(max) + ", got " + format_number(v),
                           "out_of_range");
  return v;
}

std::int64_t integer_field(const record& spec, const char* name, std::int64_t min, std::int64_t max,
                           std::int64_t fallback) {
  const auto* c = spec.find(name);
  if (!c) return fallback;
  std::int64_t v = 0;
  // A JSON integer arrives as an integer cell; a whole double (2.0) is the same integer.
  if (c->is_integer()) {
    v = *c->integer();
    // A positive integer read from JSON text was an unsigned one, refused in these words
    // before it could overflow (the refusals requests have always had).
    if (v >= 0 && v > max)
      throw validation_error(field_name(name), std::string(name) + " must be at most " + std::to_string(max),
                             "out_of_range");
  } else if (c->is_double() && std::isfinite(*c->number()) && std::floor(*c->number()) == *c->number() &&
             std::fabs(*c->number()) < 9e15) {
    v = static_cast<std::int64_t>(*c->number());
  } else {
    throw validation_error(field_name(name), std::string(name) + " must be an integer");
  }
  if (v < min || v > max)
    throw validation_error(field_name(name), std::string(name) + " must be between " + std::to_string(min) +
                                                 " and " + std::to_string(max) + ", got " + std::to_string(v),
                           "out_of_range");
  return v;
}

std::string string_field(const record& spec, const char* name, const std::string& fallback) {
  const auto* c = spec.find(name);
  if (!c) return fallback;
  if (!c->is_string()) throw validation_error(field_name(name), std::string(name) + " must be a string");
  return c->as_string();
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

namespace {

// Tags, whichever kind declares them: labels to find a job by (GET /v1/jobs?tag=), so short texts.
constexpr std::size_t k_max_tags = 32, k_max_tag_chars = 64;

void check_tags(const cell& tags) {
  if (!tags.is_list()) throw validation_error("spec.tags", "tags must be a list of texts, e.g. [\"baseline\", \"fan-on\"]");
  if (tags.as_list().size() > k_max_tags)
    throw validation_error("spec.tags", "at most " + std::to_string(k_max_tags) + " tags", "too_large");
  for (const auto& t : tags.as_list())
    if (!t.is_string() || t.as_string().empty() || t.as_string().size() > k_max_tag_chars)
      throw validation_error("spec.tags", "each tag must be a text of 1 to " + std::to_string(k_max_tag_chars) + " characters");
}

// An empty list where a list is declared: read as the default before, which hid a client's bug
// (a list it built came out empty) behind a job that measured something else. Refused unless
// it means something for the field (tags; a stored spec's unused models or networks). The
// values' types are each reader's to check (number_field and the kinds' own), as they always were.
void check_not_empty(const spec_field& f, const cell& v, bool may_be_empty) {
  if (f.type == spec_type::list && v.is_list() && v.as_list().empty() && !may_be_empty)
    throw validation_error("spec." + f.name, f.name + " is empty: the job would have no points", "empty");
}

}  // namespace

void check_spec_fields(const record& spec, const std::vector<spec_field>& fields,
                       std::initializer_list<const char*> may_be_empty) {
  std::string list;
  for (const auto& f : fields) list += (list.empty() ? "" : ", ") + f.name;
  reject_unknown(
      spec,
      [&](const std::string& key) {
        for (const auto& f : fields)
          if (key == f.name) return true;
        return false;
      },
      list);
  for (const auto& f : fields) {
    const cell* v = given_field(spec, f.name);
    if (!v) continue;
    bool empty_ok = f.name == "tags";
    for (const char* n : may_be_empty) empty_ok = empty_ok || f.name == n;
    check_not_empty(f, *v, empty_ok);
    if (f.name == "tags") check_tags(*v);
  }
}

namespace {
// An explicit null means "the default", as absence does.
bool absent(const record& spec, const spec_field& f) { return !given_field(spec, f.name); }
}  // namespace

double number_field(const record& spec, const spec_field& f, double fallback) {
  if (absent(spec, f)) return fallback;
  return number_field(spec, f.name.c_str(), f.min, f.max, fallback);
}

double number_field(const record& spec, const spec_field& f) {
  return number_field(spec, f, f.default_value.number().value_or(0.0));
}

std::int64_t integer_field(const record& spec, const spec_field& f, std::int64_t fallback) {
  if (absent(spec, f)) return fallback;
  return integer_field(spec, f.name.c_str(), static_cast<std::int64_t>(f.min), static_cast<std::int64_t>(f.max),
                       fallback);
}

std::int64_t integer_field(const record& spec, const spec_field& f) {
  return integer_field(spec, f, f.default_value.integer().value_or(0));
}

std::string string_field(const record& spec, const spec_field& f, const std::string& fallback) {
  const auto v = absent(spec, f) ? fallback : string_field(spec, f.name.c_str(), fallback);
  if (f.choices.empty()) return v;
  for (const auto& c : f.choices)
    if (v == c) return v;
  std::string list;
  for (const auto& c : f.choices) list += (list.empty() ? "\"" : "\", \"") + c;
  throw validation_error(field_name(f.name.c_str()),
                         f.name + " must be one of " + list + "\", got \"" + v + "\"");
}

std::string string_field(const record& spec, const spec_field& f) {
  return string_field(spec, f, f.default_value.text().value_or(std::string()));
}

bool bool_field(const record& spec, const spec_field& f) {
  if (absent(spec, f)) return f.default_value.boolean().value_or(false);
  const auto v = spec.at(f.name).boolean();
  if (!v) throw validation_error(field_name(f.name.c_str()), f.name + " must be true or false");
  return *v;
}

}  // namespace jetperf
