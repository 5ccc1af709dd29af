#pragma once
// Each layer's latency inside the whole network (seed 002's consistency check, per layer): the
// end-to-end point runs the network a few more times with every op timed on its own, and each
// layer's in-context time is the span from its first op's start to its last op's end.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/row.hpp>
#include <jetperf/backend/layer_backend.hpp>
#include <jetperf/measure/network_runs.hpp>
#include <jetperf/measure/point_context.hpp>
#include <jetperf/models/network.hpp>

namespace jetperf::kinds {

/// Runs in context: at least this many, more while under the time budget, at most the maximum.
constexpr std::size_t k_in_context_min_runs = 5;
constexpr std::size_t k_in_context_max_runs = 50;
constexpr double k_in_context_budget_s = 1.0;

/// {"<layer index>": {name, median_s, p25_s, p75_s, runs}} for `layers` of `net`, from runs of
/// `be` (prepared with the whole network); {} when the backend cannot time its ops. Records the
/// runs' layers (track "layers") and the first runs' ops (track "ops", with their kernels) on
/// the timeline.
record measure_in_context(const measure::point_context& ctx, workloads::layer_backend& be, const models::network& net,
                          const std::vector<models::layer>& layers);

/// The isolated-against-in-context view of one network's rows: per layer its isolated median,
/// in-context median, their ratio, and `disagrees` when they differ by more than twice their
/// combined spread (the isolated runs' standard deviation and the in-context runs'
/// interquartile range / 1.349). `in_context` is the end-to-end row's column; `isolated` the
/// layer rows' metrics. One record per layer in both: {layer_index, layer_name, isolated_median_s,
/// in_context_median_s, isolated_over_in_context, disagrees}.
cell_list compare_in_context(const record& in_context, const std::vector<row>& isolated);

}  // namespace jetperf::kinds
