#pragma once
// The ratio of two means with its 95% interval, each mean from runs of unknown and unequal
// variance (Welch's test, on the log of the ratio): how `compare A B` says whether one job's
// point is faster than the other's, as nvbench's comparison does per benchmark.
#include <cstddef>
#include <vector>

namespace jetperf::stats {

/// A mean, the standard deviation of the values behind it and their count.
struct sample_summary {
  double mean = 0;
  double sd = 0;
  double n = 0;
};

struct ratio_interval {
  bool valid = false;  ///< both means positive and each backed by two values or more
  double ratio = 0;    ///< b.mean / a.mean
  double lo = 0;       ///< the ratio's 95% interval
  double hi = 0;
  double dof = 0;      ///< Welch-Satterthwaite degrees of freedom (of the log ratio)
  /// The interval leaves out 1: b's mean differs from a's beyond the runs' noise.
  bool differs() const { return valid && (lo > 1.0 || hi < 1.0); }
};

/// b over a. Invalid (and only `ratio` set, where both means are positive) when a side has fewer
/// than two values or a mean is not positive: no spread to test against.
ratio_interval welch_ratio(const sample_summary& a, const sample_summary& b);

/// The mean, standard deviation and count of `values` (through running_stats).
sample_summary summarize(const std::vector<double>& values);

}  // namespace jetperf::stats
