#pragma once
// The columns of a command job's rows: one row per measured run of the program.
#include <jetperf/common/columns.hpp>

namespace jetperf::kinds {

const column_table& command_columns();

}  // namespace jetperf::kinds
