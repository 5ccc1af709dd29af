#pragma once
// The columns of a multi_dnn job: one row per mapping and network stage (the point's "stages"),
// each with its mapping's figures (throughput, power, tegrastats aggregates).
#include <jetperf/common/columns.hpp>

namespace jetperf::kinds {

const column_table& multi_dnn_columns();

}  // namespace jetperf::kinds
