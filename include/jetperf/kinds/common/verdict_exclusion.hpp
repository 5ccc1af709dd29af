#pragma once
// Which points a verdict (gemm's most efficient and compare, multi_dnn's best mappings) leaves
// out: a figure past a physical bound is no result at all, and a window other processes took CPU
// time from, or one that ended short of its precision target, can name the wrong winner. One rule
// for every kind.
#include <string>

#include <jetperf/common/row.hpp>

namespace jetperf::kinds::common {

/// Why a verdict leaves a point of this status and metrics out: `implausible` when the point is
/// (a row of it broke a physical bound, physical_bounds.hpp) or its implausible column names a
/// bound, else its first flag of `contended`, `rse_unmet` (in that order); "" when it counts.
std::string verdict_exclusion(const std::string& status, const row& metrics);

/// Whether a verdict looks at a point of this status: `ok` ones, and `implausible` ones, which it
/// leaves out and counts (verdict_exclusion) rather than passing over unsaid.
bool verdict_sees(const std::string& status);

}  // namespace jetperf::kinds::common
