#pragma once
// How long a gemm sweep takes: per point the idle baseline of a new setting, cool-down, filling
// the matrices, warm-up and the window, over the time of one GEMM that the cost model gives
// (this board's earlier runs, else a nominal rate per device and dtype).
#include <vector>

#include <jetperf/measure/run_cost.hpp>
#include <jetperf/kinds/gemm/gemm_spec.hpp>

namespace jetperf::kinds {

/// One GEMM of `p` for the cost model: class device/dtype/tensor, 2mnk FLOPs, the device's clock
/// when the point sets it, and a nominal guess for a board with no history.
measure::run_cost gemm_run_cost(const gemm_point& p);

/// Seconds each point takes, in order.
std::vector<double> estimate_gemm_points_s(const gemm_spec& spec, const std::vector<gemm_point>& points,
                                           const measure::estimate_context& ctx);

}  // namespace jetperf::kinds
