#pragma once
// Count, mean and standard deviation of a list of values, as the seed reports them
// (np.mean, np.std: the population standard deviation, ddof = 0).
#include <cstddef>
#include <vector>

namespace jetperf::traces {

struct sample_stats {
  std::size_t count = 0;
  double mean = 0;  ///< meaningless when count == 0 (writers print it empty / null)
  double std = 0;
  double sum = 0;
};

sample_stats summarize(const std::vector<double>& values);

/// The statistics of several lists' values taken together (count, sum, mean and np.std of the
/// union), from each list's statistics alone.
sample_stats pooled(const std::vector<sample_stats>& parts);

}  // namespace jetperf::traces
