#pragma once
// The columns of a gemm point, in output order: what every result format and the client read.
#include <jetperf/common/columns.hpp>

namespace jetperf::kinds {

const column_table& gemm_columns();

}  // namespace jetperf::kinds
