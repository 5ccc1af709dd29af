#pragma once
// Whether a window's latency RSE can still reach its target by max_time_s, judged from its trend
// so far, so that a point that cannot converge (a slow clock's heavy-tailed runs) stops early
// with the projection instead of running to max_time_s (issue "Everyday costs", item 4).
//
// The RSE is recorded at checkpoints as the window goes. Its trend is the slope of log(RSE)
// against log(elapsed) since the checkpoint at half the time elapsed; the projection carries the
// RSE now to the horizon along that slope, but never along one flatter than -1/2 (independent
// runs: the RSE falls as 1/sqrt(n)), so the projection is the more hopeful of the two and a
// window is stopped only when even independent runs could not bring it to its target.
#include <optional>
#include <vector>

namespace jetperf::stats {

class rse_projection {
 public:
  /// Records the RSE at `elapsed_s` (increasing). A checkpoint is kept only 10% or more in time
  /// after the last one kept (the latest reading always counts), so a few dozen are ever held.
  void add(double elapsed_s, double rse);
  /// The RSE projected at `horizon_s`: nullopt until the checkpoints span a factor of two in time.
  std::optional<double> at(double horizon_s) const;

 private:
  struct checkpoint {
    double t = 0, rse = 0;
  };
  std::vector<checkpoint> kept_;
  checkpoint last_;
  bool any_ = false;
};

/// A projection must exceed the target by this factor before the window stops on it: a point
/// whose projection is within 25% of its target runs on (the RSE estimate itself is uncertain).
constexpr double k_projection_margin = 1.25;

}  // namespace jetperf::stats
