#pragma once
// The columns of a layers point (one layer, or the whole network end to end), in output order.
#include <jetperf/common/columns.hpp>

namespace jetperf::kinds {

const column_table& layers_columns();

}  // namespace jetperf::kinds
