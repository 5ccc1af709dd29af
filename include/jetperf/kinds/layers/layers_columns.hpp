#pragma once
// The columns of a layers point (one layer, or the whole network end to end), in output order.
// A row is written through the constants (row.set(layers::cols::latency_mean_s, ...)) and the
// views read it through them; the table's declarations name the same constants. The protocol's
// own columns (power_w, energy_j, flags, ...) are measure::cols.
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/common/columns.hpp>
#include <jetperf/common/row.hpp>
#include <jetperf/common/summary_table.hpp>

namespace jetperf::kinds {

namespace layers::cols {
inline constexpr column_key<std::string> network{"network"};
inline constexpr column_key<std::string> device{"device"};
inline constexpr column_key<std::int64_t> layer_index{"layer_index"};
inline constexpr column_key<std::string> layer_name{"layer_name"};
inline constexpr column_key<std::string> layer_type{"layer_type"};
inline constexpr column_key<double> latency_mean_s{"latency_mean_s"};
inline constexpr column_key<std::string> granularity{"granularity"};
inline constexpr column_key<std::int64_t> batch{"batch"};
inline constexpr column_key<std::string> dtype{"dtype"};
inline constexpr column_key<std::int64_t> input_size{"input_size"};
inline constexpr column_key<std::int64_t> repeat{"repeat"};
inline constexpr column_key<std::string> backend{"backend"};
inline constexpr column_key<std::string> input_shapes{"input_shapes"};
inline constexpr column_key<std::string> output_shape{"output_shape"};
inline constexpr column_key<std::int64_t> params{"params"};
inline constexpr column_key<std::int64_t> macs{"macs"};
inline constexpr column_key<std::int64_t> flops{"flops"};
inline constexpr column_key<std::int64_t> functional_layer_count{"functional_layer_count"};
inline constexpr column_key<std::int64_t> ops{"ops"};
inline constexpr column_key<std::string> protocol{"protocol"};
inline constexpr column_key<std::int64_t> latency_count{"latency_count"};
inline constexpr column_key<double> latency_median_s{"latency_median_s"};
inline constexpr column_key<double> latency_std_s{"latency_std_s"};
inline constexpr column_key<double> latency_min_s{"latency_min_s"};
inline constexpr column_key<double> latency_max_s{"latency_max_s"};
inline constexpr column_key<double> latency_rse{"latency_rse"};
inline constexpr column_key<double> window_s{"window_s"};
inline constexpr column_key<std::int64_t> window_runs{"window_runs"};
inline constexpr column_key<double> sensor_update_period_s{"sensor_update_period_s"};
inline constexpr column_key<std::string> sensor_period_source{"sensor_period_source"};
inline constexpr column_key<std::int64_t> sensor_samples{"sensor_samples"};
inline constexpr column_key<double> gflops{"gflops"};
inline constexpr column_key<double> layer_latency_sum_s{"layer_latency_sum_s"};
inline constexpr column_key<double> layers_over_end_to_end{"layers_over_end_to_end"};
inline constexpr column_key<std::vector<std::string>> kernels{"kernels"};
/// {"<layer index>": {name, median_s, p25_s, p75_s, runs}} (in_context.hpp).
inline constexpr column_key<record> in_context{"in_context"};
inline constexpr column_key<double> power_ci95_w{"power_ci95_w"};
inline constexpr column_key<double> energy_ci95_j{"energy_ci95_j"};
inline constexpr column_key<std::string> layer_resolution{"layer_resolution"};
inline constexpr column_key<std::string> merged_with{"merged_with"};
inline constexpr column_key<std::int64_t> layer_readings{"layer_readings"};
inline constexpr column_key<double> layer_energy_sum_j{"layer_energy_sum_j"};
inline constexpr column_key<double> layer_energy_sum_ci95_j{"layer_energy_sum_ci95_j"};
/// The in_context estimator's diagnostics (in_context_rows.hpp).
inline constexpr column_key<record> estimator{"estimator"};
/// An in_context point's rows (the table's row_list): the end-to-end row's own first ({}), then
/// one record per layer, keyed by the columns above.
inline constexpr column_key<cell_list> layer_rows{"layer_rows"};
}  // namespace layers::cols

const column_table& layers_columns();
/// The summary's networks table (layers_results.cpp's summarize_layers writes its rows).
const std::vector<summary_table>& layers_summary_tables();

}  // namespace jetperf::kinds
