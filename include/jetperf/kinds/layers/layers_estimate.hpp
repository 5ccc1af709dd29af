#pragma once
// How long a layers job takes: per point the idle baseline of a new setting, cool-down, preparing
// the layer, warm-up runs and the window (adaptive: latency_samples runs over a power window of
// at least min_time_s and ten sensor updates; fixed: the runs, window_s and its boundaries, the
// gap), over the time of one run that the cost model gives (this board's earlier runs of the
// same device, dtype and layer type, else a nominal rate).
#include <vector>

#include <jetperf/kinds/layers/layers_spec.hpp>
#include <jetperf/measure/run_cost.hpp>
#include <jetperf/models/network.hpp>

namespace jetperf::kinds {

/// One run of `l` at a point for the cost model: class device/dtype/layer type, its FLOPs at the
/// point's batch, the device's clock when the point sets it, and a nominal guess.
measure::run_cost layer_run_cost(const models::layer& l, const layers_point& point);

/// Seconds each point of the spec's expansion takes, in order.
std::vector<double> estimate_layers_points_s(const layers_spec& spec, const std::vector<layers_point>& points,
                                             const measure::estimate_context& ctx);

}  // namespace jetperf::kinds
