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
  std::string iteration_op;        ///< empty: ProfilerStep#N annotations
};

trace_breakdown analyze_trace(const trace& t, const analysis_options& options = {});

}  // namespace jetperf::traces
