#pragma once
// Which points a verdict (gemm's most efficient and compare, multi_dnn's best mappings) leaves
// out: a window other processes took CPU time from, or one that ended short of its precision
// target, can name the wrong winner. One rule for every kind.
#include <string>

#include <jetperf/common/row.hpp>

namespace jetperf::measure {

/// Why a verdict leaves a point with these metrics out: its first flag of `contended`,
/// `rse_unmet` (in that order); "" when it counts.
std::string verdict_exclusion(const row& metrics);

}  // namespace jetperf::measure
