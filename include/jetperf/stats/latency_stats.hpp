#pragma once
// Statistics of per-iteration times: what a point reports as its latency.
#include <cstddef>
#include <vector>

namespace jetperf::stats {

struct latency_stats {
  std::size_t count = 0;
  double mean_s = 0;
  double median_s = 0;
  double min_s = 0;
  double max_s = 0;
  double std_s = 0;  ///< sample standard deviation (n - 1)
  double rse = 0;    ///< relative standard error of the mean: std / sqrt(n) / mean (inf when n < 2)
};

/// Statistics of `times_s`; all zero (rse inf) for an empty input.
latency_stats compute_latency_stats(const std::vector<double>& times_s);

/// Relative standard error of the mean of independent values: std / sqrt(n) / |mean|.
/// Infinite when n < 2 or the mean is 0.
double relative_standard_error(const std::vector<double>& values);

/// RSE of the mean of an autocorrelated series (power samples), by batch means: the series is cut
/// into `batches` contiguous sub-windows whose means are nearly independent, and the RSE of those
/// means is returned. Neighbouring power samples are strongly correlated (sensor averaging,
/// thermal inertia), so the naive formula would claim far too much precision.
/// Infinite with fewer than 2 samples per batch for at least 2 batches.
double batch_means_rse(const std::vector<double>& series, std::size_t batches = 10);

}  // namespace jetperf::stats
