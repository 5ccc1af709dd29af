#include <jetperf/measure/repeat_stats.hpp>

#include <cmath>

namespace jetperf::measure {

double t95(std::size_t dof) {
  // t_{0.975} for 1..30 degrees of freedom; the normal quantile beyond.
  static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof == 0) return 0;
  return dof <= 30 ? table[dof - 1] : 1.960;
}

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

nlohmann::json repeat_summary::to_json() const {
  return {{"n", n}, {"mean", mean}, {"std", std}, {"ci95_low", mean - ci95}, {"ci95_high", mean + ci95},
          {"disagree", disagree}};
}

}  // namespace jetperf::measure
