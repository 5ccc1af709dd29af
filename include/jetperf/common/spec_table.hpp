#pragma once
// A spec's scalar fields bound to the members of its struct: one declaration per field gives its
// parse (bounds, default, the refusal naming "spec.<field>"), its stored form (to_record and
// back) and its entry in GET /v1/kinds, so a field is spelled once. Fields whose parse is the kind's
// own (lists, sizes, board axes) are declared here without a member and read by the kind.
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_fields.hpp>

namespace jetperf {

template <class Spec>
struct bound_field {
  using member = std::variant<std::monostate, double Spec::*, std::optional<double> Spec::*, std::int64_t Spec::*,
                              std::string Spec::*, bool Spec::*>;
  spec_field declared;
  member target;  ///< monostate: declared only, the kind reads it
  /// A default that depends on fields declared before this one (declared.default_value is then
  /// null and the description says how), e.g. a boundary by protocol.
  cell (*default_rule)(const Spec& parsed_so_far) = nullptr;
};

template <class Spec>
class spec_table {
 public:
  explicit spec_table(std::vector<bound_field<Spec>> fields) : fields_(std::move(fields)) {
    for (const auto& f : fields_) declared_.push_back(f.declared);
  }

  /// Every field in order, bound or not: what spec_fields() serves.
  const std::vector<spec_field>& declarations() const { return declared_; }

  /// Reads each bound field of a request's spec into `out`: its default when absent or null,
  /// else range- and choice-checked (validation_error "spec.<field>").
  void parse(const record& spec, Spec& out) const {
    for (const auto& f : fields_) std::visit([&](auto m) { parse_one(spec, with_default(f, out), m, out); }, f.target);
  }

  /// Reads each bound field of a stored spec (validated when it was submitted); a field stored
  /// before it existed reads as its default.
  void stored(const record& j, Spec& out) const {
    for (const auto& f : fields_) std::visit([&](auto m) { stored_one(j, with_default(f, out), m, out); }, f.target);
  }

  /// Writes each bound field into `out` (an optional without a value as null).
  void put(const Spec& s, record& out) const {
    for (const auto& f : fields_) std::visit([&](auto m) { put_one(s, f.declared.name, m, out); }, f.target);
  }

 private:
  // The declaration with its default as it stands for this spec.
  static spec_field with_default(const bound_field<Spec>& f, const Spec& so_far) {
    if (!f.default_rule) return f.declared;
    auto d = f.declared;
    d.default_value = f.default_rule(so_far);
    return d;
  }

  static void parse_one(const record&, const spec_field&, std::monostate, Spec&) {}
  static void parse_one(const record& spec, const spec_field& f, double Spec::*m, Spec& out) {
    out.*m = number_field(spec, f);
  }
  static void parse_one(const record& spec, const spec_field& f, std::optional<double> Spec::*m, Spec& out) {
    const auto* c = spec.find(f.name);
    if (!c || c->is_null()) out.*m = std::nullopt;
    else out.*m = number_field(spec, f);
  }
  static void parse_one(const record& spec, const spec_field& f, std::int64_t Spec::*m, Spec& out) {
    out.*m = integer_field(spec, f);
  }
  static void parse_one(const record& spec, const spec_field& f, std::string Spec::*m, Spec& out) {
    out.*m = string_field(spec, f);
  }
  static void parse_one(const record& spec, const spec_field& f, bool Spec::*m, Spec& out) {
    out.*m = bool_field(spec, f);
  }

  static void stored_one(const record&, const spec_field&, std::monostate, Spec&) {}
  template <class T>
  static void stored_one(const record& j, const spec_field& f, T Spec::*m, Spec& out) {
    const auto* c = j.find(f.name);
    const bool missing = !c || c->is_null();
    if constexpr (std::is_same_v<T, std::optional<double>>) {
      out.*m = missing ? std::nullopt : std::optional<double>(stored_value<double>(*c, f.name));
    } else {
      out.*m = stored_value<T>(missing ? f.default_value : *c, f.name);
    }
  }

  // A stored value of the member's type: an integer reads as a double, and a double as an
  // integer (truncated), as they always have; any other type is a spec no longer valid.
  template <class T>
  static T stored_value(const cell& v, const std::string& name) {
    std::optional<T> out;
    if constexpr (std::is_same_v<T, double>) out = v.number();
    else if constexpr (std::is_same_v<T, std::int64_t>) out = v.integer();
    else if constexpr (std::is_same_v<T, std::string>) out = v.text();
    else out = v.boolean();
    if (!out) throw validation_error("spec." + name, "the stored spec's " + name + " is not a " + type_name<T>());
    return *out;
  }
  template <class T>
  static const char* type_name() {
    if constexpr (std::is_same_v<T, double>) return "number";
    else if constexpr (std::is_same_v<T, std::int64_t>) return "integer";
    else if constexpr (std::is_same_v<T, std::string>) return "string";
    else return "boolean";
  }

  static void put_one(const Spec&, const std::string&, std::monostate, record&) {}
  template <class T>
  static void put_one(const Spec& s, const std::string& name, T Spec::*m, record& out) {
    out.set(name, cell(s.*m));  // an optional without a value as null
  }

  std::vector<bound_field<Spec>> fields_;
  std::vector<spec_field> declared_;
};

}  // namespace jetperf
