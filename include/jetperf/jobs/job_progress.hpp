#pragma once
// A running job's estimate of what is left, from the pace of its own finished points: the kind's
// estimate of each point (taken again as the cost model learns the job's runs, with as many
// windows per point as the job's points measured, contended ones measured again included),
// scaled by how long the finished points took against their estimate. Past jobs of the kind on
// this board (their calibration and window repeats) weigh as half a point, so the job's own pace
// leads from its first finished point on.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <jetperf/store/estimate_basis.hpp>

namespace jetperf::jobs {

class job_progress {
 public:
  /// Each point's seconds (all of them, in order) when each window is measured `window_repeats` times.
  using estimate_fn = std::function<std::vector<double>(double window_repeats)>;

  /// What past jobs of the kind on this board say before the job's own points do.
  struct prior {
    double factor = 1;          ///< how their points compared with their estimates
    double window_repeats = 1;  ///< windows their points measured per point
    store::estimate_basis basis{"static", 0};  ///< what the estimate is made from before a point ends
  };

  /// `first`: the first point this run measures (a resumed job's points before it are not its pace).
  job_progress(estimate_fn estimate, prior before, std::size_t first, std::int64_t now_ns);

  /// Point `index` ended at `now_ns`, having measured `windows` windows (its own and the
  /// contended ones measured again; nullopt: a point that measures none, e.g. idle): returns the
  /// seconds left (the estimate of the points after it, at the job's pace). The kind's estimate
  /// is taken again after the first point, when the windows per point change, and at most every
  /// 2 s otherwise (it is O(points)).
  double point_done(std::size_t index, std::int64_t now_ns, std::optional<double> windows = std::nullopt);
  /// Seconds the finished points of this run took.
  double actual_s() const { return actual_s_; }
  /// Seconds the estimate (taken again now, with the windows per point the finished points
  /// measured) gives the points from `first` up to `end`.
  double estimated_s(std::size_t end);
  /// Windows the finished points measured, and how many points measured them.
  double windows() const { return windows_; }
  double window_points() const { return window_points_; }
  /// Windows per point as the estimate counts them: the job's own, past jobs' weighing as half a point.
  double window_repeats() const;
  /// "pace" and the points it was taken over once one ended; the prior's basis before.
  store::estimate_basis basis() const;

 private:
  /// With `repeats` windows per point (nullopt: window_repeats()).
  void estimate_again(std::optional<double> repeats = std::nullopt);

  estimate_fn estimate_;
  prior prior_;
  std::size_t first_;
  std::vector<double> left_after_;  ///< seconds estimated from point j to the end
  double estimated_repeats_ = 1;    ///< the window repeats left_after_ was estimated with
  double actual_s_ = 0;
  std::int64_t points_ = 0;  ///< finished in this run
  double windows_ = 0, window_points_ = 0;
  std::int64_t last_point_ns_;
  std::int64_t last_estimate_ns_;
};

}  // namespace jetperf::jobs
