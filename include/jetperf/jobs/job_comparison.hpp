#pragma once
// Two jobs of one kind compared point by point (`jetperf compare A B`, GET /v1/compare): the
// points with the same parameters (repeats aside) are paired and, per metric, b's mean is set
// over a's with its 95% interval and a verdict, as nvbench's comparison script does per benchmark.
#include <cstddef>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/columns.hpp>
#include <jetperf/jobs/point_row.hpp>
#include <jetperf/stats/welch_ratio.hpp>

namespace jetperf::jobs {

/// How a pair's metric was tested: on the repeats' values (two or more a side), on each point's
/// window (its runs' standard deviation and count, column::sd_column), or not at all.
enum class comparison_test { repeats, window, none };
/// faster / slower: a time or a rate that differs beyond the noise and the threshold;
/// higher / lower: any other metric (power, energy, efficiency) that does; same: within either;
/// unknown: no spread to test against.
enum class comparison_verdict { faster, slower, higher, lower, same, unknown };

const char* to_string(comparison_test t);
const char* to_string(comparison_verdict v);

struct metric_comparison {
  std::string metric;
  std::string unit;
  stats::sample_summary a;
  stats::sample_summary b;
  comparison_test test = comparison_test::none;
  stats::ratio_interval ratio;  ///< b over a
  comparison_verdict verdict = comparison_verdict::unknown;
  /// slower by more than the threshold: what makes `jetperf compare A B` exit 1.
  bool regressed = false;
};

struct point_pair {
  record params;  ///< the parameters both points ran with (repeat left out)
  std::size_t a_points = 0;
  std::size_t b_points = 0;
  std::vector<metric_comparison> metrics;
};

struct job_comparison {
  double threshold = 0;
  std::vector<point_pair> pairs;
  std::size_t only_in_a = 0;  ///< parameter sets (with an ok point) that only one job ran
  std::size_t only_in_b = 0;
  std::size_t regressions = 0;  ///< metrics, over every pair, that regressed
};

/// Compares the ok points of `a` and `b` (rows of one kind, whose own columns are `columns`) on
/// each numeric metric the kind shows by default. `threshold`: the relative change (0.05 = 5%)
/// below which a difference the noise cannot explain still reads `same`.
job_comparison compare_jobs(const std::vector<column>& columns, const std::vector<point_row>& a,
                            const std::vector<point_row>& b, double threshold);

}  // namespace jetperf::jobs
