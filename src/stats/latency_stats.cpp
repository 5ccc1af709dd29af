#include <jetperf/stats/latency_stats.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace jetperf::stats {

namespace {
constexpr double k_inf = std::numeric_limits<double>::infinity();

double mean_of(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double sample_std(const std::vector<double>& v, double mean) {
  if (v.size() < 2) return 0;
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}
}  // namespace

latency_stats compute_latency_stats(const std::vector<double>& times_s) {
  latency_stats s;
  s.count = times_s.size();
  s.rse = k_inf;
  if (times_s.empty()) return s;
  std::vector<double> sorted = times_s;
  std::sort(sorted.begin(), sorted.end());
  s.mean_s = mean_of(sorted);
  const std::size_t n = sorted.size();
  s.median_s = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  s.min_s = sorted.front();
  s.max_s = sorted.back();
  s.std_s = sample_std(sorted, s.mean_s);
  s.rse = relative_standard_error(times_s);
  return s;
}

double relative_standard_error(const std::vector<double>& values) {
  if (values.size() < 2) return k_inf;
  const double mean = mean_of(values);
  if (mean == 0) return k_inf;
  return sample_std(values, mean) / std::sqrt(static_cast<double>(values.size())) / std::fabs(mean);
}

double batch_means_rse(const std::vector<double>& series, std::size_t batches) {
  // Fewer batches when the series is short, but never fewer than 2 samples per batch.
  batches = std::min(batches, series.size() / 2);
  if (batches < 2) return k_inf;
  const std::size_t per = series.size() / batches;
  std::vector<double> means;
  means.reserve(batches);
  // The first batches absorb nothing; the remainder goes to the last batch.
  for (std::size_t b = 0; b < batches; ++b) {
    const std::size_t lo = b * per;
    const std::size_t hi = b + 1 == batches ? series.size() : lo + per;
    means.push_back(std::accumulate(series.begin() + static_cast<std::ptrdiff_t>(lo),
                                    series.begin() + static_cast<std::ptrdiff_t>(hi), 0.0) /
                    static_cast<double>(hi - lo));
  }
  return relative_standard_error(means);
}

}  // namespace jetperf::stats
