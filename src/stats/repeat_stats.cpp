#include <jetperf/stats/repeat_stats.hpp>

#include <algorithm>
#include <cmath>

#include <jetperf/stats/student_t.hpp>

namespace jetperf::stats {

namespace {

double sample_std(const std::vector<double>& values, double mean) {
  if (values.size() < 2) return 0;
  double ss = 0;
  for (double v : values) ss += (v - mean) * (v - mean);
  return std::sqrt(ss / static_cast<double>(values.size() - 1));
}

cell bound_cell(const std::optional<double>& v) { return v ? cell(*v) : cell(); }

}  // namespace

repeat_summary summarize_repeats(const std::vector<double>& values, const std::vector<double>& standard_errors) {
  repeat_summary s;
  s.n = values.size();
  if (s.n == 0) return s;
  for (double v : values) s.mean += v;
  s.mean /= static_cast<double>(s.n);
  if (s.n < 2) return s;
  s.std = sample_std(values, s.mean);
  s.ci95 = t95(s.n - 1) * s.std / std::sqrt(static_cast<double>(s.n));
  if (standard_errors.size() == values.size()) {
    double se2 = 0;
    for (double e : standard_errors) se2 += e * e;
    s.disagree = s.std > 2 * std::sqrt(se2 / static_cast<double>(s.n));
  }
  return s;
}

interval_95 repeat_summary::interval() const { return {std::max(0.0, mean - ci95), mean + ci95}; }

record repeat_summary::to_record() const {
  const auto ci = interval();
  return {{"n", n}, {"mean", mean}, {"std", std}, {"ci95_low", ci.low}, {"ci95_high", bound_cell(ci.high)},
          {"disagree", disagree}};
}

interval_95 ratio_interval(const interval_95& num, const interval_95& den) {
  interval_95 out;
  out.low = den.high && *den.high > 0 ? num.low / *den.high : 0.0;
  if (num.high && den.low > 0) out.high = *num.high / den.low;
  return out;
}

ratio_summary summarize_ratio(const repeat_summary& num, const repeat_summary& den, const std::vector<double>& values) {
  ratio_summary r;
  r.n = values.size();
  r.mean = den.mean > 0 ? num.mean / den.mean : 0.0;
  double mean_of_values = 0;
  for (double v : values) mean_of_values += v;
  if (!values.empty()) mean_of_values /= static_cast<double>(values.size());
  r.std = sample_std(values, mean_of_values);
  r.ci = ratio_interval(num.interval(), den.interval());
  r.disagree = num.disagree || den.disagree;
  return r;
}

record ratio_summary::to_record() const {
  return {{"n", n}, {"mean", mean}, {"std", std}, {"ci95_low", ci.low}, {"ci95_high", bound_cell(ci.high)},
          {"disagree", disagree}};
}

}  // namespace jetperf::stats
