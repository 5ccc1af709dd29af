#pragma once
// How long a multi_dnn job takes: per mapping the idle baseline of a new setting, cool-down and
// the concurrent window (fixed, or adaptive between its bounds), measured again as often as
// contended windows were (estimate_context::window_repeats). Preparing the networks and the
// warm-up's few inferences are left to the job's pace and the kind's calibration.
#include <vector>

#include <jetperf/kinds/multi_dnn/multi_dnn_spec.hpp>
#include <jetperf/measure/run_cost.hpp>

namespace jetperf::kinds {

/// The power window spans at least this many sensor updates (as the layers job's adaptive rule).
inline constexpr double k_multi_dnn_min_sensor_updates = 10;

/// Seconds each point takes, in order.
std::vector<double> estimate_multi_dnn_points_s(const multi_dnn_spec& spec, const std::vector<multi_dnn_point>& points,
                                                const measure::estimate_context& ctx);

}  // namespace jetperf::kinds
