#pragma once
// Training or inference iterations in a trace, from the step labels profilers and benchmarks
// write: torch.profiler's ProfilerStep#N, DLRM-style record_function("## iteration N ##"), a
// label the caller describes by a pattern, or every outermost occurrence of an op the caller
// names exactly.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jetperf/traces/op_tree.hpp>
#include <jetperf/traces/sample_stats.hpp>
#include <jetperf/traces/trace.hpp>

namespace jetperf::traces {

struct iteration {
  std::string name;
  double start_us = 0;  ///< from the first event of the trace
  double duration_us = 0;
  std::uint32_t event = 0;  ///< index into trace::events
  // Filled by analyze_trace: seed 004's host overheads of the ops that start in this iteration
  // (each type over every name), and its QPS.
  std::size_t ops = 0;
  sample_stats t1, t2, t3, t4, t5;
  std::optional<double> qps;  ///< batch_size / duration_us, with a batch size
};

/// What marks an iteration. Both empty: the first of the profilers' step labels the trace holds,
/// ProfilerStep#* (torch.profiler), then "## iteration * ##" (DLRM benchmarks).
struct iteration_rule {
  std::string op;     ///< an exact name (--iteration-op)
  std::string label;  ///< a pattern (--iteration-label): `*` any run of characters, `?` one
};

struct found_iterations {
  std::vector<iteration> iterations;  ///< in start order
  std::string source;  ///< "ProfilerStep", "## iteration * ##", the op or the pattern given
};

/// The longest iteration_rule::label taken: matching costs up to its length times a name's.
constexpr std::size_t k_max_iteration_pattern = 1000;

/// The step labels tried, in order, when the rule names none.
const std::vector<std::string>& default_step_patterns();

/// Whether `name` matches `pattern` as a whole (`*` any run of characters, `?` one character).
bool matches_pattern(std::string_view pattern, std::string_view name);

/// Every host event the rule selects that is not nested in another it selects, in start order.
/// validation_error("iteration_label") when both op and label are given or the label is longer
/// than k_max_iteration_pattern.
found_iterations find_iterations(const trace& t, const op_tree& tree, const iteration_rule& rule);

}  // namespace jetperf::traces
