#pragma once
// Field-by-field readers for job specs, over the spec's typed value tree (a record: a request's
// JSON object as api/ read it, or a stored spec): each throws validation_error naming
// "spec.<field>" with what was expected, so every kind reports bad input the same way.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>

namespace jetperf {

/// The field `name` when the spec gives it and it is not null (null reads as absent); nullptr else.
const cell* given_field(const record& spec, const std::string& name);
/// Rejects any key of `spec` not in `allowed` (field "spec.<key>").
void reject_unknown_fields(const record& spec, std::initializer_list<const char*> allowed);
/// A finite number in [min, max]; `fallback` when absent.
double number_field(const record& spec, const char* name, double min, double max, double fallback);
/// An integer in [min, max]; `fallback` when absent. 2.0 is accepted, 2.5 and "2" are not.
std::int64_t integer_field(const record& spec, const char* name, std::int64_t min, std::int64_t max,
                           std::int64_t fallback);
/// A string; `fallback` when absent.
std::string string_field(const record& spec, const char* name, const std::string& fallback);

enum class spec_type { number, integer, text, boolean, list, object };
const char* to_string(spec_type t);

/// One declared field of a kind's spec: the kind's parse reads its bounds and default from here,
/// and GET /v1/kinds serves the same declaration, so a default is written once.
struct spec_field {
  std::string name;
  spec_type type = spec_type::number;
  /// The default when absent; null where it depends on other fields (the description says how)
  /// or where absence means "leave the board as it is".
  cell default_value;
  std::string description;
  double min = 0, max = 0;           ///< numbers and integers: the accepted range
  std::vector<std::string> choices;  ///< text: the accepted values (empty = any)
};

/// The declared field `name`; throws std::logic_error when `fields` has none (a kind's own bug).
const spec_field& find_spec_field(const std::vector<spec_field>& fields, const std::string& name);
/// Rejects any key of `spec` that is not a declared field (field "spec.<key>", listing them), an
/// empty list where a list is declared (unless its name is in `may_be_empty`, or it is tags) and
/// tags that are not a short list of short texts. Every kind's parse starts with it.
void check_spec_fields(const record& spec, const std::vector<spec_field>& fields,
                       std::initializer_list<const char*> may_be_empty = {});
/// The declared field's value, range-checked; its default when absent or null.
double number_field(const record& spec, const spec_field& f);
std::int64_t integer_field(const record& spec, const spec_field& f);
/// The same with a default that depends on other fields.
double number_field(const record& spec, const spec_field& f, double fallback);
std::int64_t integer_field(const record& spec, const spec_field& f, std::int64_t fallback);
/// A text field, one of f.choices when it declares them.
std::string string_field(const record& spec, const spec_field& f);
std::string string_field(const record& spec, const spec_field& f, const std::string& fallback);
/// A boolean field (true/false only).
bool bool_field(const record& spec, const spec_field& f);

}  // namespace jetperf
