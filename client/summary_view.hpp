#pragma once
// A job's summary read by kind: gemm's most efficient settings, the layers kind's networks table,
// and `key: value` lines for any other kind.
#include <string>

#include <nlohmann/json.hpp>

namespace jetperf::client {

/// What follows the table of `jetperf results`: for gemm "\nmost efficient: ...\n" only, for
/// layers "\nsummary:\n" and the networks table, for other kinds "\nsummary:\n" and
/// `  key: value` lines; empty for an empty summary.
std::string format_results_summary(const std::string& kind, const nlohmann::json& summary);

/// The "summary:" section of `jetperf show`: as above, with gemm's best setting per dtype and
/// size too; everything indented under the heading. Empty for an empty summary.
std::string format_show_summary(const std::string& kind, const nlohmann::json& summary);

/// "caveat: ...\n" for each of j["caveats"] (summaries and comparisons); "" when none.
std::string caveat_lines(const nlohmann::json& j);

/// Each line of `text` prefixed with `indent` (blank lines stay blank).
std::string indent_lines(const std::string& text, const std::string& indent);

}  // namespace jetperf::client
