#pragma once
// The tables of a kind's summary, declared: where a summary holds a list of rows (a layers job's
// networks, a command job's settings), the kind names the list and its columns once, GET
// /v1/kinds serves the declaration, and the client and the web page render every such table the
// same way instead of knowing each kind's summary shape. Plain values: the JSON forms live at the
// API's edge (src/api/routes_kinds.cpp) and in the client (client/summary_tables.cpp).
#include <string>
#include <vector>

namespace jetperf {

/// How a cell reads.
enum class summary_format {
  value,     ///< as any table cell: numbers compact, null "-", strings bare, others compact JSON
  setting,   ///< a board setting {name: value}: "name=value,..." of its non-null values, "as is" when none
  fraction,  ///< "part/whole": the value, "/", then the value at the column's `of` path
  /// A point's settings in one line ("cpu float 64x64x64 tensor=off gpu_freq_hz=..."), read from
  /// the object at `path` ("" = the row), leaving out the key named by `of`.
  params,
  count,  ///< how many items the list at `path` holds ("-" when it is no list)
};

/// Where a column's path starts.
enum class summary_source {
  row,     ///< the row
  parent,  ///< the row a nested row sits in (tables with `nested`)
  key,     ///< a nested row's name in its object (tables with `nested`); `path` is unused
};

struct summary_column {
  std::string header;
  std::string path;  ///< dotted, into the row: "wall_median_s", "over_idle.gflops_per_w"
  std::string unit;  ///< "s", "J", ... ("" = none)
  summary_format format = summary_format::value;
  summary_source source = summary_source::row;
  std::string of;  ///< fraction: the path of the whole, from the same place as `path`
};

struct summary_table {
  std::string name;   ///< unique within the kind
  std::string title;  ///< a heading printed above the table ("" = none)
  std::string rows;   ///< the summary key whose value is the list of rows; entries not objects are passed over
  /// When set, the table's rows are the members of each row's `nested` object, one per name, in
  /// the list's order (a command job's phases per setting).
  std::string nested;
  std::vector<summary_column> columns;
  /// The line printed instead of a table without rows ("" = nothing at all).
  std::string empty_text;
};

/// A comparison a kind offers (GET /v1/jobs/{id}/compare?by=NAME), declared as the table its
/// answer's "rows" read as, so that a client renders it without knowing the kind. In the table's
/// headers, paths, `of` and empty_text, "{by}" stands for the parameter asked for.
struct compare_view {
  std::vector<std::string> by;  ///< the parameters this view compares by
  summary_table table;
};

/// The view of `views` for parameter `by`; nullptr when none compares by it.
inline const compare_view* find_compare_view(const std::vector<compare_view>& views, const std::string& by) {
  for (const auto& v : views)
    for (const auto& name : v.by)
      if (name == by) return &v;
  return nullptr;
}

}  // namespace jetperf
