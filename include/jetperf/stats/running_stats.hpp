#pragma once
// Welford's running mean and variance, so a stop rule can be checked after every iteration in O(1).
#include <cmath>
#include <cstddef>
#include <limits>

namespace jetperf::stats {

class running_stats {
 public:
  void add(double x) {
    ++n_;
    const double d = x - mean_;
    mean_ += d / static_cast<double>(n_);
    m2_ += d * (x - mean_);
  }
  std::size_t count() const { return n_; }
  double mean() const { return mean_; }
  /// Sample variance (n - 1); 0 when n < 2.
  double variance() const { return n_ < 2 ? 0.0 : m2_ / static_cast<double>(n_ - 1); }
  /// Relative standard error of the mean; infinite when n < 2 or the mean is 0.
  double rse() const {
    if (n_ < 2 || mean_ == 0) return std::numeric_limits<double>::infinity();
    return std::sqrt(variance() / static_cast<double>(n_)) / std::fabs(mean_);
  }

 private:
  std::size_t n_ = 0;
  double mean_ = 0;
  double m2_ = 0;
};

}  // namespace jetperf::stats
