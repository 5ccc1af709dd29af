#include <jetperf/traces/sample_stats.hpp>

#include <cmath>

namespace jetperf::traces {

sample_stats summarize(const std::vector<double>& values) {
  sample_stats s;
  s.count = values.size();
  if (values.empty()) return s;
  for (double v : values) s.sum += v;
  s.mean = s.sum / static_cast<double>(s.count);
  double squares = 0;
  for (double v : values) squares += (v - s.mean) * (v - s.mean);
  s.std = std::sqrt(squares / static_cast<double>(s.count));
  return s;
}

sample_stats pooled(const std::vector<sample_stats>& parts) {
  sample_stats s;
  for (const auto& p : parts) {
    s.count += p.count;
    s.sum += p.sum;
  }
  if (s.count == 0) return s;
  const double n = static_cast<double>(s.count);
  s.mean = s.sum / n;
  // Each part's squares about the pooled mean: its own spread plus its mean's distance.
  double squares = 0;
  for (const auto& p : parts) {
    if (p.count == 0) continue;
    const double d = p.mean - s.mean;
    squares += static_cast<double>(p.count) * (p.std * p.std + d * d);
  }
  s.std = std::sqrt(squares / n);
  return s;
}

}  // namespace jetperf::traces
