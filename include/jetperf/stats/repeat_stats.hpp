#pragma once
// What repeats of one measurement say together: their mean, the 95% confidence interval of that
// mean (Student's t over the repeats), and whether the repeats disagree beyond what each one's own
// noise explains: their spread (sample standard deviation) larger than twice the root mean square
// of their standard errors. A disagreement means drift between repeats (heat, other load, clocks)
// rather than noise within a window.
//
// Every quantity jetperf repeats is one that cannot be negative (a time, an energy, a rate), so
// each interval is cut at zero (a confidence interval cut to where the quantity can be keeps its
// coverage), and a rate's interval (GFLOP/s, GFLOP/s/W, a ratio of two times) is derived from its
// parts' intervals, the bounds of a ratio from the bounds of its parts: never symmetric around the
// ratio, never below zero.
#include <cstddef>
#include <optional>
#include <vector>

#include <jetperf/common/cell.hpp>

namespace jetperf::stats {

/// A 95% interval; `high` absent where it is unbounded (a ratio whose denominator's interval
/// reaches zero).
struct interval_95 {
  double low = 0;
  std::optional<double> high;
};

struct repeat_summary {
  std::size_t n = 0;
  double mean = 0;
  double std = 0;        ///< sample standard deviation across repeats (0 for one repeat)
  double ci95 = 0;       ///< half-width of the mean's 95% interval (0 for one repeat)
  bool disagree = false; ///< std > 2 x RMS of the repeats' own standard errors
  /// mean -+ ci95, the low cut at zero.
  interval_95 interval() const;
  record to_record() const;  ///< {"n","mean","std","ci95_low","ci95_high","disagree"}, interval()'s bounds
};

/// `values` one per repeat; `standard_errors` the same length (each repeat's standard error of
/// its own mean), or empty when unknown (then `disagree` stays false).
repeat_summary summarize_repeats(const std::vector<double>& values, const std::vector<double>& standard_errors);

/// The interval of num / den from its parts' (both at least zero): [num.low / den.high,
/// num.high / den.low]; the high unbounded where den.low is zero or num.high is unbounded.
interval_95 ratio_interval(const interval_95& num, const interval_95& den);

/// A rate or ratio across repeats, from its parts' summaries: `mean` the ratio of the parts'
/// means, `std` the spread of its per-repeat values, its interval from the parts' (ratio_interval)
/// and whether either part's repeats disagree.
struct ratio_summary {
  std::size_t n = 0;
  double mean = 0;
  double std = 0;
  interval_95 ci;
  bool disagree = false;
  /// {"n","mean","std","ci95_low","ci95_high" (null: unbounded),"disagree"}, as repeat_summary's.
  record to_record() const;
};

/// num / den across repeats, each a repeat_summary of its part; `values` the per-repeat ratios
/// (for `std`). A constant part (the work of a GEMM) is a summary of n equal values.
ratio_summary summarize_ratio(const repeat_summary& num, const repeat_summary& den, const std::vector<double>& values);

}  // namespace jetperf::stats
