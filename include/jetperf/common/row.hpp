#pragma once
// A result row: the cells of one point (or one of its items), set and read through the kind's
// column constants, so the write site and the read site name the declaration, not a string.
//   namespace cols { inline constexpr column_key<double> time_mean_s{"time_mean_s"}; }
//   row r;  r.set(cols::time_mean_s, 0.25);  r.get(cols::time_mean_s) -> std::optional<double>
// Columns named at run time (one per rail) go through put()/find().
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/columns.hpp>

namespace jetperf {

/// A declared column's name and value type: double, std::int64_t, bool, std::string,
/// std::vector<std::string> (a list of names), record (an object) or cell_list.
template <class T>
struct column_key {
  const char* name;
};

namespace detail {
template <class T> struct column_type_of;
template <> struct column_type_of<double> { static constexpr column_type value = column_type::number; };
template <> struct column_type_of<std::int64_t> { static constexpr column_type value = column_type::integer; };
template <> struct column_type_of<bool> { static constexpr column_type value = column_type::boolean; };
template <> struct column_type_of<std::string> { static constexpr column_type value = column_type::text; };
template <> struct column_type_of<std::vector<std::string>> { static constexpr column_type value = column_type::list; };
template <> struct column_type_of<cell_list> { static constexpr column_type value = column_type::list; };
template <> struct column_type_of<record> { static constexpr column_type value = column_type::object; };
}  // namespace detail

/// The declaration of `key`'s column: its name and type come from the key.
template <class T>
column declare(const column_key<T>& key, column_role role, std::string unit, std::string description,
               bool shown = false, bool main = false) {
  return column{key.name, detail::column_type_of<T>::value, role, std::move(unit), std::move(description), shown, main};
}

/// `c` with the columns holding its runs' standard deviation and count (column::sd_column).
template <class S, class N>
column with_spread(column c, const column_key<S>& sd, const column_key<N>& count) {
  c.sd_column = sd.name;
  c.count_column = count.name;
  return c;
}

class row {
 public:
  row() = default;
  explicit row(record cells) : cells_(std::move(cells)) {}

  template <class T, class V>
  void set(const column_key<T>& key, V&& value) {
    static_assert(std::is_constructible<T, V&&>::value || std::is_same<std::decay_t<V>, std::optional<T>>::value ||
                      std::is_same<std::decay_t<V>, std::nullptr_t>::value,
                  "the value's type is not the column's");
    cells_.set(key.name, cell(std::forward<V>(value)));
  }
  /// The column's value; nullopt when absent, null or of another type.
  template <class T>
  std::optional<T> get(const column_key<T>& key) const {
    const auto* c = cells_.find(key.name);
    return c ? value_of<T>(*c) : std::nullopt;
  }
  bool has(const char* name) const { return cells_.contains(name); }
  template <class T>
  bool has(const column_key<T>& key) const { return cells_.contains(key.name); }

  /// A column named at run time (rail_<NAME>_w) or a cell moved from another row.
  void put(const std::string& name, cell value) { cells_.set(name, std::move(value)); }
  const cell* find(const std::string& name) const { return cells_.find(name); }
  bool erase(const std::string& name) { return cells_.erase(name); }

  const record& cells() const { return cells_; }
  record& cells() { return cells_; }
  bool operator==(const row& other) const { return cells_ == other.cells_; }

 private:
  template <class T>
  static std::optional<T> value_of(const cell& c) {
    if constexpr (std::is_same<T, double>::value) return c.is_number() ? c.number() : std::nullopt;
    else if constexpr (std::is_same<T, std::int64_t>::value) return c.is_integer() ? c.integer() : std::nullopt;
    else if constexpr (std::is_same<T, bool>::value) return c.boolean();
    else if constexpr (std::is_same<T, std::string>::value) return c.text();
    else if constexpr (std::is_same<T, std::vector<std::string>>::value) {
      if (!c.is_list()) return std::nullopt;
      return c.strings();
    } else if constexpr (std::is_same<T, cell_list>::value) {
      if (!c.is_list()) return std::nullopt;
      return c.as_list();
    } else {
      if (!c.is_record()) return std::nullopt;
      return c.as_record();
    }
  }

  record cells_;
};

}  // namespace jetperf
