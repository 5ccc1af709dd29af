#pragma once
// The columns of a multi_dnn job: one row per mapping and network stage (the point's "stages"),
// each with its mapping's figures (throughput, power, tegrastats aggregates).
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/common/columns.hpp>
#include <jetperf/common/row.hpp>

namespace jetperf::kinds {

namespace multi_dnn::cols {
inline constexpr column_key<std::int64_t> mapping_id{"mapping_id"};
inline constexpr column_key<std::string> mapping_class{"mapping_class"};
inline constexpr column_key<std::string> network{"network"};
inline constexpr column_key<std::int64_t> stage_index{"stage_index"};
inline constexpr column_key<std::string> device{"device"};
inline constexpr column_key<std::string> layer_range{"layer_range"};
inline constexpr column_key<std::int64_t> inference_count{"inference_count"};
inline constexpr column_key<double> inference_mean_s{"inference_mean_s"};
inline constexpr column_key<double> inference_median_s{"inference_median_s"};
inline constexpr column_key<double> inference_p99_s{"inference_p99_s"};
inline constexpr column_key<double> transfer_mean_s{"transfer_mean_s"};
inline constexpr column_key<double> network_throughput_ips{"network_throughput_ips"};
inline constexpr column_key<std::int64_t> network_inferences{"network_inferences"};
inline constexpr column_key<double> network_throughput_rse{"network_throughput_rse"};
inline constexpr column_key<double> throughput_ips{"throughput_ips"};
inline constexpr column_key<std::int64_t> inferences{"inferences"};
inline constexpr column_key<std::int64_t> split{"split"};
inline constexpr column_key<std::string> backend{"backend"};
inline constexpr column_key<std::int64_t> params{"params"};
inline constexpr column_key<std::int64_t> macs{"macs"};
inline constexpr column_key<std::int64_t> flops{"flops"};
inline constexpr column_key<std::int64_t> functional_layer_count{"functional_layer_count"};
inline constexpr column_key<record> mapping{"mapping"};
inline constexpr column_key<std::vector<std::string>> networks{"networks"};
inline constexpr column_key<std::int64_t> set{"set"};
inline constexpr column_key<std::int64_t> repeat{"repeat"};
inline constexpr column_key<std::int64_t> batch{"batch"};
inline constexpr column_key<std::string> dtype{"dtype"};
inline constexpr column_key<std::int64_t> threads{"threads"};
inline constexpr column_key<std::string> protocol{"protocol"};
inline constexpr column_key<double> window_s{"window_s"};
inline constexpr column_key<std::int64_t> warmup_inferences{"warmup_inferences"};
inline constexpr column_key<double> sensor_update_period_s{"sensor_update_period_s"};
inline constexpr column_key<record> tegrastats{"tegrastats"};
/// The row list: one item per network stage, each with the stage columns above.
inline constexpr column_key<cell_list> stages{"stages"};
}  // namespace multi_dnn::cols

const column_table& multi_dnn_columns();

}  // namespace jetperf::kinds
