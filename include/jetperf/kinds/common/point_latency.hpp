#pragma once
// The latency columns of a point, from the window's statistics: each kind names them its own
// way (gemm's time_*, layers' latency_*), so the kind passes its keys and this writes them.
#include <cstdint>

#include <jetperf/common/row.hpp>
#include <jetperf/stats/latency_stats.hpp>

namespace jetperf::kinds::common {

struct latency_keys {
  column_key<std::int64_t> count;
  column_key<double> mean_s, median_s, min_s, max_s, std_s, rse;
};

/// Writes count, mean, median, min, max and standard deviation under `keys`, and the RSE (null
/// when it is not finite: fewer than two runs).
void put_latency(row& metrics, const latency_keys& keys, const stats::latency_stats& latency);

}  // namespace jetperf::kinds::common
