#include <jetperf/measure/repeat_stats.hpp>

#include <cmath>

#include <jetperf/measure/student_t.hpp>

namespace jetperf::measure {

repeat_summary summarize_repeats(const std::vector<double>& values, const std::vector<double>& standard_errors) {
  repeat_summary s;
  s.n = values.size();
  if (s.n == 0) return s;
  for (double v : values) s.mean += v;
  s.mean /= static_cast<double>(s.n);
  if (s.n < 2) return s;
  double ss = 0;
  for (double v : values) ss += (v - s.mean) * (v - s.mean);
  s.std = std::sqrt(ss / static_cast<double>(s.n - 1));
  s.ci95 = t95(s.n - 1) * s.std / std::sqrt(static_cast<double>(s.n));
  if (standard_errors.size() == values.size()) {
    double se2 = 0;
    for (double e : standard_errors) se2 += e * e;
    s.disagree = s.std > 2 * std::sqrt(se2 / static_cast<double>(s.n));
  }
  return s;
}

record repeat_summary::to_record() const {
  return {{"n", n}, {"mean", mean}, {"std", std}, {"ci95_low", mean - ci95}, {"ci95_high", mean + ci95},
          {"disagree", disagree}};
}

}  // namespace jetperf::measure
