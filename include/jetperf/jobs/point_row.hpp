#pragma once
// A finished point as the kinds' views read it: its params (the point as stored), its status and
// its row. Summaries, comparisons and exports get these, never store types.
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/row.hpp>

namespace jetperf::jobs {

struct point_row {
  std::int64_t index = 0;
  std::string status;  ///< "ok", "skipped", "failed", or why a ran point lacks its main metrics
  record params;
  row metrics;
};

}  // namespace jetperf::jobs
