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

}  // namespace jetperf::traces
