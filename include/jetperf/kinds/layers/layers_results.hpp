#pragma once
// Views over a layer-wise job's points ({"params","metrics","status"} rows): the per-network
// summary (sum of isolated layers against end to end, seed 002's consistency check) and the
// seed 001 processed layout ("dnnstats").
#include <vector>

#include <nlohmann/json.hpp>

namespace jetperf::kinds {

/// {"networks": [{network, device, granularity, board setting, layers, layers_measured,
/// layer_latency_sum_s, end_to_end_latency_s, layers_over_end_to_end, layer_energy_sum_j,
/// end_to_end_energy_j, end_to_end_power_w, params, macs, functional_layer_count}]}.
nlohmann::json summarize_layers(const std::vector<nlohmann::json>& rows);

/// network -> device ("gpu"/"cpu") -> {"power": {layer index: {rail: mW}}, "latency": {layer index: s}},
/// layer rows only, layer indices in numeric order ("2" before "10"). A job over several board
/// settings is keyed by setting first ("power_mode=0,gpu_freq_hz=...").
nlohmann::ordered_json layers_dnnstats(const std::vector<nlohmann::json>& rows);

/// "power_mode=0,gpu_freq_hz=1300500000" for a point's non-null settings ("as_is" when none).
std::string setting_label(const nlohmann::json& params);

}  // namespace jetperf::kinds
