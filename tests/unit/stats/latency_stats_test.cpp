#include <jetperf/stats/latency_stats.hpp>
#include <jetperf/stats/running_stats.hpp>

#include <cmath>

#include <gtest/gtest.h>

using namespace jetperf::stats;

TEST(latency_stats, known_values) {
  const auto s = compute_latency_stats({4.0, 1.0, 3.0, 2.0});
  EXPECT_EQ(s.count, 4u);
  EXPECT_DOUBLE_EQ(s.mean_s, 2.5);
  EXPECT_DOUBLE_EQ(s.median_s, 2.5);
  EXPECT_DOUBLE_EQ(s.min_s, 1.0);
  EXPECT_DOUBLE_EQ(s.max_s, 4.0);
  EXPECT_NEAR(s.std_s, 1.2909944487, 1e-9);
  EXPECT_NEAR(s.rse, 1.2909944487 / 2.0 / 2.5, 1e-9);
}

TEST(latency_stats, odd_median_and_empty) {
  EXPECT_DOUBLE_EQ(compute_latency_stats({5.0, 1.0, 3.0}).median_s, 3.0);
  const auto e = compute_latency_stats({});
  EXPECT_EQ(e.count, 0u);
  EXPECT_TRUE(std::isinf(e.rse));
  EXPECT_TRUE(std::isinf(relative_standard_error({1.0})));
}

TEST(latency_stats, running_stats_matches_batch_formula) {
  running_stats r;
  const std::vector<double> v = {1.0, 2.0, 4.0, 8.0, 3.0};
  for (double x : v) r.add(x);
  EXPECT_NEAR(r.mean(), 3.6, 1e-12);
  EXPECT_NEAR(r.rse(), relative_standard_error(v), 1e-12);
}

TEST(batch_means, constant_series_has_zero_rse_and_short_series_infinite) {
  EXPECT_DOUBLE_EQ(batch_means_rse(std::vector<double>(100, 7.5)), 0.0);
  EXPECT_TRUE(std::isinf(batch_means_rse({1.0, 2.0, 3.0})));
}

TEST(batch_means, autocorrelated_series_reports_more_error_than_naive) {
  // A slow square wave: neighbours are equal, so the naive RSE claims far too much precision.
  std::vector<double> v;
  for (int i = 0; i < 1000; ++i) v.push_back((i / 250) % 2 ? 8.0 : 7.0);
  EXPECT_GT(batch_means_rse(v, 10), 3 * relative_standard_error(v));
}
