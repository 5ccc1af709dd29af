// rse_projection: the RSE carried to the horizon along its trend, never a flatter one than
// independent runs give (1/sqrt(t)), and only once the checkpoints span a factor of two.
#include <jetperf/stats/rse_projection.hpp>

#include <cmath>

#include <gtest/gtest.h>

using namespace jetperf::stats;

TEST(rse_projection, says_nothing_until_its_checkpoints_span_a_factor_of_two) {
  rse_projection p;
  EXPECT_FALSE(p.at(5.0));
  p.add(0.2, 0.1);
  p.add(0.3, 0.08);
  EXPECT_FALSE(p.at(5.0));
  p.add(0.4, 0.07);
  ASSERT_TRUE(p.at(5.0));
}

TEST(rse_projection, independent_runs_are_carried_along_one_over_the_root_of_time) {
  rse_projection p;
  for (double t = 0.2; t <= 1.0001; t += 0.05) p.add(t, 0.05 / std::sqrt(t));
  ASSERT_TRUE(p.at(4.0));
  EXPECT_NEAR(*p.at(4.0), 0.05 / 2.0, 1e-9);
}

TEST(rse_projection, a_flat_trend_is_given_the_benefit_of_independent_runs) {
  // Heavy tails: the RSE does not fall at all. The projection still assumes it would fall as
  // 1/sqrt(t) from here: a window is stopped only when even that cannot reach its target.
  rse_projection p;
  for (double t = 0.2; t <= 0.8001; t += 0.05) p.add(t, 0.08);
  ASSERT_TRUE(p.at(5.0));
  EXPECT_NEAR(*p.at(5.0), 0.08 * std::sqrt(0.8 / 5.0), 1e-9);
}

TEST(rse_projection, a_steeper_fall_is_followed) {
  // One early outlier being diluted: the RSE falls as 1/t, faster than independent runs.
  rse_projection p;
  for (double t = 0.1; t <= 0.4001; t += 0.01) p.add(t, 0.01 / t);
  ASSERT_TRUE(p.at(4.0));
  EXPECT_NEAR(*p.at(4.0), 0.01 / 4.0, 1e-6);
}

TEST(rse_projection, the_trend_is_the_later_half_of_the_window) {
  // Flat until 1 s (a warm-up transient), then falling as 1/t: the later half is what counts.
  rse_projection p;
  for (double t = 0.1; t <= 1.0001; t += 0.05) p.add(t, 0.1);
  for (double t = 1.05; t <= 2.5001; t += 0.05) p.add(t, 0.1 / t);
  ASSERT_TRUE(p.at(10.0));
  EXPECT_LT(*p.at(10.0), 0.1 / 2.5 * std::sqrt(2.5 / 10.0));  // steeper than 1/sqrt(t)
  EXPECT_NEAR(*p.at(10.0), 0.01, 0.003);
}

TEST(rse_projection, the_horizon_already_passed_is_the_rse_now) {
  rse_projection p;
  p.add(0.5, 0.2);
  p.add(1.0, 0.1);
  EXPECT_DOUBLE_EQ(*p.at(0.8), 0.1);
}
