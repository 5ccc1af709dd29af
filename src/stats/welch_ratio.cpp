#include <jetperf/stats/welch_ratio.hpp>

#include <algorithm>
#include <cmath>

#include <jetperf/stats/running_stats.hpp>
#include <jetperf/stats/student_t.hpp>

namespace jetperf::stats {

ratio_interval welch_ratio(const sample_summary& a, const sample_summary& b) {
  ratio_interval r;
  if (!(a.mean > 0) || !(b.mean > 0)) return r;
  r.ratio = b.mean / a.mean;
  r.lo = r.hi = r.ratio;
  if (a.n < 2 || b.n < 2) return r;
  // On the log scale the ratio is a difference, and each side's relative variance of its mean
  // (delta method) is what Welch's degrees of freedom weigh.
  const double va = a.sd * a.sd / (a.n * a.mean * a.mean);
  const double vb = b.sd * b.sd / (b.n * b.mean * b.mean);
  const double v = va + vb;
  r.valid = true;
  if (!(v > 0)) {
    r.dof = a.n + b.n - 2;
    return r;
  }
  r.dof = v * v / (va * va / (a.n - 1) + vb * vb / (b.n - 1));
  // t95 takes whole degrees of freedom: rounding down keeps the interval on the safe side.
  const double half = t95(static_cast<std::size_t>(std::max(1.0, std::floor(r.dof)))) * std::sqrt(v);
  r.lo = r.ratio * std::exp(-half);
  r.hi = r.ratio * std::exp(half);
  return r;
}

sample_summary summarize(const std::vector<double>& values) {
  running_stats r;
  for (double v : values) r.add(v);
  return {r.mean(), std::sqrt(r.variance()), static_cast<double>(r.count())};
}

}  // namespace jetperf::stats
