#pragma once
// What repeats of one measurement say together: their mean, the 95% confidence interval of that
// mean (Student's t over the repeats), and whether the repeats disagree beyond what each one's own
// noise explains: their spread (sample standard deviation) larger than twice the root mean square
// of their standard errors. A disagreement means drift between repeats (heat, other load, clocks)
// rather than noise within a window.
#include <cstddef>
#include <vector>

#include <jetperf/common/cell.hpp>

namespace jetperf::measure {

struct repeat_summary {
  std::size_t n = 0;
  double mean = 0;
  double std = 0;        ///< sample standard deviation across repeats (0 for one repeat)
  double ci95 = 0;       ///< half-width of the mean's 95% interval (0 for one repeat)
  bool disagree = false; ///< std > 2 x RMS of the repeats' own standard errors
  record to_record() const;  ///< {"n","mean","std","ci95_low","ci95_high","disagree"}
};

/// `values` one per repeat; `standard_errors` the same length (each repeat's standard error of
/// its own mean), or empty when unknown (then `disagree` stays false).
repeat_summary summarize_repeats(const std::vector<double>& values, const std::vector<double>& standard_errors);

}  // namespace jetperf::measure
