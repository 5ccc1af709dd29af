#pragma once
// Views over a layer-wise job's finished points (jobs::point_row): the per-network summary (sum
// of isolated layers against end to end, seed 002's consistency check) and the seed 001
// processed layout ("dnnstats").
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/jobs/point_row.hpp>

namespace jetperf::kinds {

struct layers_point;

/// {"networks": [{network, device, granularity, board setting, dtype, batch, input_size, repeat,
/// layers, layers_measured, layer_latency_sum_s, end_to_end_latency_s, layers_over_end_to_end,
/// layer_energy_sum_j, end_to_end_energy_j, end_to_end_power_w, params, macs,
/// functional_layer_count}], "repeats": [...]}. With repeats, "repeats" holds one row per network,
/// device, setting and variant: the mean and 95% interval across repeats of the end-to-end
/// latency, the layer sum, layers_over_end_to_end and the energy, and repeats_disagree when one
/// of the first three spreads more than twice its repeats' own standard errors.
cell summarize_layers(const std::vector<jobs::point_row>& rows);

/// network -> device ("gpu"/"cpu") -> {"power": {layer index: {rail: mW}}, "latency": {layer index: s}},
/// layer rows only, layer indices in numeric order ("2" before "10"). A job over several board
/// settings is keyed by setting first ("power_mode=0,gpu_freq_hz=..."), and the dtype, batch,
/// input_size and repeat join that key when the job has more than one of them. A record: its
/// keys keep this order (the seed's file is read in it).
cell layers_dnnstats(const std::vector<jobs::point_row>& rows);

/// "power_mode=0,gpu_freq_hz=1300500000" for a point's non-null settings ("as_is" when none).
std::string setting_label(const record& params);
/// The setting label followed by the point's dtype, batch, input_size and repeat (those it has).
std::string variant_label(const record& params);
/// The same for a typed point (every key: a point of this version has them all).
std::string variant_label(const layers_point& p);

}  // namespace jetperf::kinds
