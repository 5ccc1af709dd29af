#pragma once
// What one run of a whole network, timed op by op, gives the protocols that measure layers in
// context (the in_context protocol, the kinds' latency in context): each layer's span in the run
// and the run's ops on the job's timeline.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <jetperf/backend/layer_backend.hpp>
#include <jetperf/stats/layer_power_estimate.hpp>
#include <jetperf/measure/point_context.hpp>
#include <jetperf/models/network.hpp>

namespace jetperf::measure {

/// Runs of the whole network whose every op goes on the timeline (the layers of every run go there).
constexpr std::size_t k_in_context_traced_runs = 3;

/// Each layer's span in one run of the whole network, from its first op's start to its last op's
/// end, in the order the layers ran; layers of aliases only (a flatten), which run nothing, are
/// left out.
std::vector<stats::layer_span> layer_spans_of_run(const std::vector<workloads::op_span>& ops,
                                           const std::vector<models::layer>& layers);

/// One run's ops on the job's timeline (track "ops"), each with its type and kernel.
void record_run_ops(const point_context& ctx, const models::network& net, const std::map<int, std::string>& kernels,
                    const std::vector<workloads::op_span>& ops, std::size_t run);

}  // namespace jetperf::measure
