#include <jetperf/measure/repeat_stats.hpp>

#include <cmath>

#include <gtest/gtest.h>

using namespace jetperf::measure;

TEST(repeat_stats, mean_and_student_interval_across_repeats) {
  const auto s = summarize_repeats({10, 12, 14}, {});
  EXPECT_EQ(s.n, 3u);
  EXPECT_DOUBLE_EQ(s.mean, 12);
  EXPECT_DOUBLE_EQ(s.std, 2);
  // t(0.975, 2) = 4.303: 4.303 * 2 / sqrt(3)
  EXPECT_NEAR(s.ci95, 4.303 * 2 / std::sqrt(3.0), 1e-9);
  EXPECT_FALSE(s.disagree);  // no standard errors: nothing to judge against
  const auto one = summarize_repeats({5}, {0.1});
  EXPECT_DOUBLE_EQ(one.mean, 5);
  EXPECT_DOUBLE_EQ(one.ci95, 0);
}

TEST(repeat_stats, repeats_disagree_when_their_spread_exceeds_their_own_noise) {
  // Each repeat's mean is known to +-0.1; they differ by 2: drift, not noise.
  EXPECT_TRUE(summarize_repeats({10, 12, 14}, {0.1, 0.1, 0.1}).disagree);
  // Known to +-2 each: the same spread is what their noise explains.
  EXPECT_FALSE(summarize_repeats({10, 12, 14}, {2, 2, 2}).disagree);
  const auto r = summarize_repeats({10, 12, 14}, {2, 2, 2}).to_record();
  EXPECT_DOUBLE_EQ(*r.at("ci95_low").number() + *r.at("ci95_high").number(), 24);
  EXPECT_EQ(r.at("n").integer(), 3);
  EXPECT_EQ(r.at("disagree").boolean(), false);
}
