#pragma once
// What measuring one point gives the job runner: its status, its metrics (the row's values), its
// measurement window on CLOCK_MONOTONIC and what one run cost, for the cost model to learn from.
#include <cstdint>
#include <optional>
#include <string>

#include <jetperf/common/row.hpp>

#include <jetperf/measure/run_cost.hpp>

namespace jetperf::measure {

struct point_result {
  std::string status = "ok";  ///< "ok", "skipped" (metrics.reason says why), "failed"
  row metrics;
  std::int64_t t_start_ns = 0;  ///< monotonic start of the measurement window
  std::int64_t t_end_ns = 0;
  /// What one run of the point cost and how long it took, for the cost model to learn from
  /// (absent when the point has no runs, or was not measured).
  std::optional<run_cost> cost;
  double run_s = 0;   ///< mean seconds of one run
  double run_cv = 0;  ///< their standard deviation over the mean
};

}  // namespace jetperf::measure
