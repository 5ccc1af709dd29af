#pragma once
// A job's summary: the tables its kind declares (GET /v1/kinds, summary_tables.hpp) rendered
// generically, gemm's most efficient settings, and `key: value` lines for everything else.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/common/summary_table.hpp>

namespace jetperf::client {

/// What follows the table of `jetperf results`: for gemm "\nmost efficient: ...\n" only; for a
/// summary holding any of the kind's declared `tables`, "\nsummary:\n" and those tables; for
/// others "\nsummary:\n" and `  key: value` lines; empty for an empty summary.
std::string format_results_summary(const std::string& kind, const nlohmann::json& summary,
                                   const std::vector<summary_table>& tables = {});

/// The "summary:" section of `jetperf show`: as above, with gemm's best setting per dtype and
/// size too, and after the declared tables the summary's other keys as `key: value` lines;
/// everything indented under the heading. Empty for an empty summary.
std::string format_show_summary(const std::string& kind, const nlohmann::json& summary,
                                const std::vector<summary_table>& tables = {});

/// "caveat: ...\n" for each of j["caveats"] (summaries and comparisons); "" when none.
std::string caveat_lines(const nlohmann::json& j);

/// Each line of `text` prefixed with `indent` (blank lines stay blank).
std::string indent_lines(const std::string& text, const std::string& indent);

}  // namespace jetperf::client
