#pragma once
// The per-kind column lists of docs/results.md, made from the kinds' declared column tables (what
// GET /v1/kinds serves), so the page cannot drift from the code: each kind's list sits between
// `<!-- columns:<kind> -->` and `<!-- /columns:<kind> -->`, written by write_results_columns and
// checked by tests/unit/daemon/results_doc_columns_test.cpp.
#include <optional>
#include <string>
#include <vector>

#include <jetperf/jobs/workload.hpp>
#include <jetperf/jobs/workload_registry.hpp>

namespace jetperf::test::results_doc {

/// How to bring docs/results.md up to date, for the messages that find it stale.
inline constexpr const char* k_regenerate_command = "cmake --build build --target results_doc_columns";

/// The markdown between a kind's markers: a note that it is generated, then one table row per
/// column in output order (index, status, the kind's own, rail_<NAME>_w when it measures power,
/// then the trailing ones), with type, unit, role and description.
std::string column_list_markdown(const jobs::workload& kind);

/// The text between the kind's markers in `doc`; nullopt when the markers are missing.
std::optional<std::string> block_of(const std::string& doc, const std::string& kind);

/// `doc` with the text between the kind's markers replaced by `body`. Throws std::runtime_error
/// naming the markers to add when the doc has none for the kind.
std::string with_block(const std::string& doc, const std::string& kind, const std::string& body);

/// The kinds of `registry` whose block in `doc` is missing or differs from their column table.
std::vector<std::string> stale_kinds(const std::string& doc, const jobs::workload_registry& registry);

/// The kinds the daemon registers (daemon/kinds.cpp), as GET /v1/kinds lists them.
jobs::workload_registry daemon_kinds();

}  // namespace jetperf::test::results_doc
