#pragma once
// One value of a result: what a row's column, a timeline span's argument or a view's entry
// holds. The middle (measure/, jobs/, kinds/) builds and reads values as cells; only store/ and
// api/ turn them into JSON (store/cell_json.hpp), so no layer below them knows the wire format.
// A record keeps its keys in the order they were first set: exports that are file formats of
// their own (the seeds' JSON) keep that order, stored rows sort it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace jetperf {

class cell;

/// An ordered list of cells.
using cell_list = std::vector<cell>;

/// Named cells in the order their keys were first set.
class record {
 public:
  using entry = std::pair<std::string, cell>;

  record() = default;
  record(std::initializer_list<entry> entries);

  /// Sets `key` (replacing its value where it is already set) and returns the cell.
  cell& set(const std::string& key, cell value);
  /// The cell at `key`, or nullptr.
  const cell* find(const std::string& key) const;
  cell* find(const std::string& key);
  /// The cell at `key`; throws std::out_of_range naming it when absent.
  const cell& at(const std::string& key) const;
  bool contains(const std::string& key) const { return find(key) != nullptr; }
  /// Removes `key`; false when it was not set.
  bool erase(const std::string& key);

  // Defined below cell: an entry needs the complete cell.
  bool empty() const;
  std::size_t size() const;
  std::vector<entry>::const_iterator begin() const;
  std::vector<entry>::const_iterator end() const;

  bool operator==(const record& other) const;
  bool operator!=(const record& other) const { return !(*this == other); }

 private:
  std::vector<entry> entries_;
};

class cell {
 public:
  using value_type = std::variant<std::monostate, bool, std::int64_t, double, std::string, cell_list, record>;

  cell() = default;  ///< null
  cell(std::nullptr_t) {}
  cell(bool v) : v_(v) {}
  cell(double v) : v_(v) {}
  cell(float v) : v_(static_cast<double>(v)) {}
  // Every integer type is an integer cell (the JSON integers the rows have always held).
  template <class I, std::enable_if_t<std::is_integral<I>::value && !std::is_same<I, bool>::value, int> = 0>
  cell(I v) : v_(static_cast<std::int64_t>(v)) {}
  cell(std::string v) : v_(std::move(v)) {}
  cell(const char* v) : v_(std::string(v)) {}
  cell(cell_list v) : v_(std::move(v)) {}
  cell(record v) : v_(std::move(v)) {}
  /// Null when empty.
  template <class T>
  cell(const std::optional<T>& v) {
    if (v) *this = cell(*v);
  }
  /// A list of cells from a list of values (strings, numbers).
  template <class T, std::enable_if_t<!std::is_same<T, cell>::value, int> = 0>
  cell(const std::vector<T>& v) : v_(cell_list(v.begin(), v.end())) {}
  template <class T, std::size_t N>
  cell(const std::array<T, N>& v) : v_(cell_list(v.begin(), v.end())) {}
  /// A record from a map keyed by name (in the map's order).
  template <class T>
  cell(const std::map<std::string, T>& m) {
    record r;
    for (const auto& kv : m) r.set(kv.first, cell(kv.second));
    v_ = std::move(r);
  }

  bool is_null() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_bool() const { return std::holds_alternative<bool>(v_); }
  bool is_integer() const { return std::holds_alternative<std::int64_t>(v_); }
  bool is_double() const { return std::holds_alternative<double>(v_); }
  bool is_number() const { return is_integer() || is_double(); }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }
  bool is_list() const { return std::holds_alternative<cell_list>(v_); }
  bool is_record() const { return std::holds_alternative<record>(v_); }

  /// The value as a number (integer or double); nullopt when it is not a number.
  std::optional<double> number() const;
  /// The value as an integer (a double is truncated); nullopt when it is not a number.
  std::optional<std::int64_t> integer() const;
  /// The value when it is a bool / a string; nullopt else.
  std::optional<bool> boolean() const;
  std::optional<std::string> text() const;

  /// The alternatives themselves; throw std::bad_variant_access on another type.
  const std::string& as_string() const { return std::get<std::string>(v_); }
  const cell_list& as_list() const { return std::get<cell_list>(v_); }
  cell_list& as_list() { return std::get<cell_list>(v_); }
  const record& as_record() const { return std::get<record>(v_); }
  record& as_record() { return std::get<record>(v_); }

  /// The list's strings (other items left out); empty when not a list.
  std::vector<std::string> strings() const;

  const value_type& value() const { return v_; }
  bool operator==(const cell& other) const { return v_ == other.v_; }
  bool operator!=(const cell& other) const { return !(*this == other); }

 private:
  value_type v_;
};

inline bool record::empty() const { return entries_.empty(); }
inline std::size_t record::size() const { return entries_.size(); }
inline std::vector<record::entry>::const_iterator record::begin() const { return entries_.begin(); }
inline std::vector<record::entry>::const_iterator record::end() const { return entries_.end(); }

}  // namespace jetperf
