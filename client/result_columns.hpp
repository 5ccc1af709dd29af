#pragma once
// The columns of GET /v1/jobs/{id}/results as the daemon describes them, which of them a table
// shows, and how one result cell reads in a table.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace jetperf::client {

/// One column of a job's results (the daemon's column object).
struct result_column {
  std::string name;
  std::string type;  ///< integer, number, boolean, text, list or object; empty when not said
  std::string role;  ///< parameter or metric; empty when not said
  std::string unit;
  std::string description;
  bool shown = true;  ///< one of the kind's default columns
};

/// The `columns` of a results answer. An older daemon's plain names become columns that are all
/// shown.
std::vector<result_column> parse_result_columns(const nlohmann::json& results);

/// The columns a table prints: `requested` exactly, in its order (a name not in `columns` is a
/// usage error listing the known names); else all of them with `wide`; else the shown ones (all
/// when none is marked shown).
std::vector<std::string> select_columns(const std::vector<result_column>& columns,
                                        const std::vector<std::string>& requested, bool wide);

/// "index, status, network, ..." for error messages.
std::string column_names(const std::vector<result_column>& columns);

/// A result as one table cell: null "-", lists "a;b;c" (empty "-"), objects "k=v;k=v", numbers
/// compact, strings bare.
std::string format_result_cell(const nlohmann::json& value);

}  // namespace jetperf::client
