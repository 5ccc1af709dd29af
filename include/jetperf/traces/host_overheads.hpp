#pragma once
// Seed 004's host overheads T1..T5, computed exactly as its notebook does (the cell "Type 1
// overhead ..."), over the ops the seed's get_operators picks: the outermost cpu ops that are not
// labels (overhead_model::module_markers), in start order.
//   T1  the gap between two consecutive ops under the same parent (on the same thread), minus one
//       event overhead; gaps >= t1_max_gap_us are data loading and skipped
//   T2  per op name: from the op's start to its first launch, minus the events before it
//   T3  per op name: from the end of the last launch to the op's end, minus the events after it
//   T4  per launch name: KERNEL_LAUNCH_LENGTH - CPU_EVENT_OVERHEAD - GPU_EVENT_OVERHEAD per launch
//   T5  per op name: the gaps between consecutive launches (0 for one launch), or, for an op that
//       launches nothing, its whole duration minus one event overhead per event in it
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <jetperf/traces/op_tree.hpp>
#include <jetperf/traces/overhead_model.hpp>
#include <jetperf/traces/sample_stats.hpp>
#include <jetperf/traces/trace.hpp>

namespace jetperf::traces {

struct host_overheads {
  sample_stats t1;
  std::map<std::string, sample_stats> t2;  ///< by op name
  std::map<std::string, sample_stats> t3;  ///< by op name
  std::map<std::string, sample_stats> t4;  ///< by launch name
  std::map<std::string, sample_stats> t5;  ///< by op name
  /// The launches of the first op of each name that launched anything (the seed's launches_dict).
  std::map<std::string, std::vector<std::string>> launches;
  std::size_t ops = 0;  ///< ops considered
};

/// The ops of the seed's get_operators: node indices, in the order T1 pairs them.
std::vector<std::uint32_t> seed_operators(const trace& t, const op_tree& tree, const overhead_model& model);

host_overheads compute_host_overheads(const trace& t, const op_tree& tree, const overhead_model& model);
/// The same over `ops` only (a part of seed_operators' list, in its order): the seed's analysis
/// of a trace trimmed to some iterations. T1 pairs neighbours in `ops`.
host_overheads compute_host_overheads(const trace& t, const op_tree& tree, const overhead_model& model,
                                      const std::vector<std::uint32_t>& ops);

}  // namespace jetperf::traces
