#pragma once
// The columns of a gemm point, in output order: what every result format and the client read.
// A row is written through the constants (row.set(gemm::cols::time_mean_s, ...)); the table's
// declarations name the same constants.
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/common/columns.hpp>
#include <jetperf/common/row.hpp>
#include <jetperf/common/summary_table.hpp>

namespace jetperf::kinds {

namespace gemm::cols {
inline constexpr column_key<std::int64_t> repeat{"repeat"};
inline constexpr column_key<std::string> device{"device"};
inline constexpr column_key<std::string> dtype{"dtype"};
inline constexpr column_key<std::int64_t> m{"m"};
inline constexpr column_key<std::int64_t> n{"n"};
inline constexpr column_key<std::int64_t> k{"k"};
inline constexpr column_key<bool> tensor{"tensor"};
inline constexpr column_key<double> time_mean_s{"time_mean_s"};
inline constexpr column_key<double> gflops{"gflops"};
inline constexpr column_key<double> gflops_per_w{"gflops_per_w"};
inline constexpr column_key<double> j_per_gflop{"j_per_gflop"};
inline constexpr column_key<std::string> backend{"backend"};
inline constexpr column_key<std::string> math_mode{"math_mode"};
inline constexpr column_key<bool> tensor_used{"tensor_used"};
inline constexpr column_key<std::int64_t> threads{"threads"};
inline constexpr column_key<std::int64_t> iterations{"iterations"};
inline constexpr column_key<double> window_s{"window_s"};
inline constexpr column_key<double> time_median_s{"time_median_s"};
inline constexpr column_key<double> time_min_s{"time_min_s"};
inline constexpr column_key<double> time_max_s{"time_max_s"};
inline constexpr column_key<double> time_std_s{"time_std_s"};
inline constexpr column_key<double> time_rse{"time_rse"};
inline constexpr column_key<std::vector<std::string>> kernels{"kernels"};
}  // namespace gemm::cols

const column_table& gemm_columns();
/// The summary's lists as tables (GET /v1/kinds/gemm): the best setting per dtype and size, and
/// the repeats' spread per setting. The client's `show` keeps gemm's verdict sentences (the
/// "most efficient:" line scripts read); the web page draws these.
const std::vector<summary_table>& gemm_summary_tables();

}  // namespace jetperf::kinds
