#pragma once
// The tables a kind declares in its summary (GET /v1/kinds/{kind}, "summary_tables"), read and
// rendered the same way for every kind: the client knows no kind's summary shape.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/common/summary_table.hpp>

namespace jetperf::client {

/// The `summary_tables` of a GET /v1/kinds/{kind} answer; none when it has none (an older daemon).
std::vector<summary_table> parse_summary_tables(const nlohmann::json& kind);

/// The `compare_views` of a GET /v1/kinds/{kind} answer; none when it has none.
std::vector<compare_view> parse_compare_views(const nlohmann::json& kind);

/// `table` with "{by}" in its headers, paths, `of` and empty_text replaced by `by`.
summary_table with_by(summary_table table, const std::string& by);

/// The declared tables whose rows `summary` holds as a list, in declaration order.
std::vector<const summary_table*> tables_in(const std::vector<summary_table>& tables, const nlohmann::json& summary);

/// One table over `summary`: its title line ("title:\n") and an aligned table, or its empty_text
/// line (or nothing) without rows.
/// `format` csv: the header row and the rows alone (no title, no empty text).
std::string format_summary_table(const summary_table& table, const nlohmann::json& summary,
                                 const std::string& format = "table");

}  // namespace jetperf::client
