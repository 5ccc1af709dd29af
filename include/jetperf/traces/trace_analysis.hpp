#pragma once
// A parsed trace -> trace_breakdown: op tree, kernel matching, per-op and per-kernel totals,
// host overheads T1..T5, iterations and QPS.
#include <optional>
#include <string>

#include <jetperf/traces/overhead_model.hpp>
#include <jetperf/traces/trace.hpp>
#include <jetperf/traces/trace_breakdown.hpp>

namespace jetperf::traces {

struct analysis_options {
  overhead_model model;
  std::optional<long> batch_size;  ///< for QPS; validation_error("batch_size") when <= 0
  std::string iteration_op;        ///< an exact name; empty: the profilers' step labels
  std::string iteration_label;     ///< a pattern (iteration_rule::label); not with iteration_op
};

/// With iterations found, the host overheads are those of the ops that start inside them (the
/// seed trims its trace to its iterations), in total and per iteration; without, of every op.
/// A trace without categories (torch's legacy profiler) is read with its record_function ranges
/// as labels (mark_legacy_labels): the first form analyses a copy, the second the trace itself.
trace_breakdown analyze_trace(const trace& t, const analysis_options& options = {});
trace_breakdown analyze_trace(trace&& t, const analysis_options& options = {});

}  // namespace jetperf::traces
