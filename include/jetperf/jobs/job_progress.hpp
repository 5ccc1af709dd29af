#pragma once
// A running job's estimate of what is left: the kind's estimate of each point (refreshed as the
// cost model learns the job's runs), scaled by the job's own pace so far, which weighs in as its
// finished points add up (past jobs' calibration of the kind until then).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace jetperf::jobs {

class job_progress {
 public:
  /// `estimate` gives each point's seconds (all of them, in order); `prior_factor` is how past
  /// jobs of the kind compared with their estimates; `first` the first point this run measures.
  job_progress(std::function<std::vector<double>()> estimate, double prior_factor, std::size_t first,
               std::int64_t now_ns);

  /// Point `index` ended at `now_ns`: returns the seconds left (the estimate of the points after
  /// it, at the job's pace). The kind's estimate is taken again at most every 2 s (it is
  /// O(points)).
  double point_done(std::size_t index, std::int64_t now_ns);
  /// Seconds the finished points of this run took.
  double actual_s() const { return actual_s_; }
  /// Seconds the estimate (taken again now) gives the points from `first` up to `end`.
  double estimated_s(std::size_t end);

 private:
  void estimate_again();

  std::function<std::vector<double>()> estimate_;
  double prior_factor_;
  std::size_t first_;
  std::vector<double> left_after_;  ///< seconds estimated from point j to the end
  double actual_s_ = 0;
  std::int64_t last_point_ns_;
  std::int64_t last_estimate_ns_;
};

}  // namespace jetperf::jobs
