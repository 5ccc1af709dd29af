#pragma once
// What a job's estimate was made from, as the jobs table keeps it beside the estimate (migration
// 0010): the API shows it beside the ETA, so that a reader knows how much to trust the figure.
#include <cstdint>
#include <string>

namespace jetperf::store {

struct estimate_basis {
  /// "pace": the job's own finished points (count: how many); "cost_model": what finished jobs of
  /// the kind taught this board's cost model (count: how many jobs); "static": the kind's own
  /// model, nothing learned yet. "": not known (a job stored before bases were kept).
  std::string source;
  std::int64_t count = 0;

  bool operator==(const estimate_basis& o) const { return source == o.source && count == o.count; }
  bool operator!=(const estimate_basis& o) const { return !(*this == o); }
};

}  // namespace jetperf::store
