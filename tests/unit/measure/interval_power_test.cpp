#include <gtest/gtest.h>

#include <jetperf/measure/interval_power.hpp>

using namespace jetperf::measure;

TEST(interval_power, integrates_the_piecewise_linear_series_over_exactly_the_interval) {
  // 0 W at t=0, 10 W at t=10 (a ramp of 1 W per ns-unit), then flat.
  const time_series s{{0, 0.0}, {10, 10.0}, {20, 10.0}};
  EXPECT_DOUBLE_EQ(*interval_mean(s, 0, 10), 5.0);
  EXPECT_DOUBLE_EQ(*interval_mean(s, 2, 4), 3.0);       // between two samples: interpolated
  EXPECT_DOUBLE_EQ(*interval_mean(s, 5, 15), 8.75);     // (7.5*5 + 10*5) / 10
  EXPECT_DOUBLE_EQ(*interval_mean(s, 30, 40), 10.0);    // after the last sample: held
  EXPECT_DOUBLE_EQ(*interval_mean(s, -10, -5), 0.0);    // before the first: held
  EXPECT_DOUBLE_EQ(*interval_mean(s, 7, 7), 7.0);       // an instant: the value there
  EXPECT_FALSE(interval_mean({}, 0, 10).has_value());
  EXPECT_EQ(points_within(s, 0, 10), 2u);
  EXPECT_EQ(points_within(s, 11, 19), 0u);
}

TEST(interval_power, splits_samples_by_channel_in_time_order) {
  const std::vector<jetperf::telemetry::sample> samples{{1, 20, 2.0}, {0, 10, 1.0}, {1, 10, 3.0}, {0, 5, 4.0}};
  const auto by = series_by_channel(samples);
  ASSERT_EQ(by.size(), 2u);
  EXPECT_EQ(by.at(0), (time_series{{5, 4.0}, {10, 1.0}}));
  EXPECT_EQ(by.at(1), (time_series{{10, 3.0}, {20, 2.0}}));
}
