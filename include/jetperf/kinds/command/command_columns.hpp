#pragma once
// The columns of a command job's rows: one row per measured run of the program, written
// through the constants (row.set(command::cols::wall_s, ...)) the table declares.
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/common/columns.hpp>
#include <jetperf/common/row.hpp>
#include <jetperf/common/summary_table.hpp>

namespace jetperf::kinds {

namespace command::cols {
inline constexpr column_key<std::int64_t> repeat{"repeat"};
inline constexpr column_key<std::int64_t> exit_code{"exit_code"};
inline constexpr column_key<std::int64_t> signal{"signal"};
inline constexpr column_key<bool> timed_out{"timed_out"};
inline constexpr column_key<double> wall_s{"wall_s"};
inline constexpr column_key<record> rail_energy_j{"rail_energy_j"};
inline constexpr column_key<record> phases{"phases"};
inline constexpr column_key<record> marks{"marks"};
inline constexpr column_key<std::int64_t> markers{"markers"};
inline constexpr column_key<std::vector<std::string>> marker_errors{"marker_errors"};
inline constexpr column_key<cell_list> warmup_exit_codes{"warmup_exit_codes"};
inline constexpr column_key<std::string> stdout_tail{"stdout_tail"};
inline constexpr column_key<std::string> stderr_tail{"stderr_tail"};
inline constexpr column_key<std::int64_t> stdout_bytes{"stdout_bytes"};
inline constexpr column_key<std::int64_t> stderr_bytes{"stderr_bytes"};
}  // namespace command::cols

const column_table& command_columns();
/// The summary's runs and phases tables per board setting (command_kind.cpp's summarize).
const std::vector<summary_table>& command_summary_tables();

}  // namespace jetperf::kinds
