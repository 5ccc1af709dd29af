#pragma once
// Training or inference iterations in a trace: torch.profiler's ProfilerStep#N annotations, or
// every outermost occurrence of an op the caller names (a record_function label around one step).
#include <string>
#include <vector>

#include <jetperf/traces/op_tree.hpp>
#include <jetperf/traces/trace.hpp>

namespace jetperf::traces {

struct iteration {
  std::string name;
  double start_us = 0;  ///< from the first event of the trace
  double duration_us = 0;
};

/// With an empty `op_name`, the host events named "ProfilerStep#..."; else those named `op_name`;
/// in both cases only those not nested in another of the same kind, in start order.
std::vector<iteration> find_iterations(const trace& t, const op_tree& tree, const std::string& op_name);

}  // namespace jetperf::traces
