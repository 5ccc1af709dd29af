#include <jetperf/stats/repeat_stats.hpp>

#include <cmath>

#include <gtest/gtest.h>

using namespace jetperf::stats;

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

// A time or an energy cannot be negative: an interval that would reach below zero is cut there
// (two repeats of 2 and 40 s gave -220.4 .. 262.4).
TEST(repeat_stats, an_interval_is_cut_at_zero) {
  const auto s = summarize_repeats({2, 40}, {});
  EXPECT_DOUBLE_EQ(s.interval().low, 0);
  EXPECT_NEAR(*s.interval().high, 21 + 12.706 * 19, 0.01);
  const auto r = s.to_record();
  EXPECT_DOUBLE_EQ(*r.at("ci95_low").number(), 0);
}

// The bounds of a ratio from the bounds of its parts, never symmetric around it.
TEST(repeat_stats, a_ratios_interval_comes_from_its_parts_bounds) {
  const auto r = ratio_interval({2, 4.0}, {0.5, 1.0});
  EXPECT_DOUBLE_EQ(r.low, 2.0);   // 2 / 1
  EXPECT_DOUBLE_EQ(*r.high, 8.0);  // 4 / 0.5
  // A denominator that may be zero: no upper bound.
  EXPECT_FALSE(ratio_interval({2, 4.0}, {0, 1.0}).high);
  // A constant numerator (the work of a GEMM) over a time: work / mean time, its bounds from the time's.
  const auto work = summarize_repeats({2, 2, 2}, {});
  const auto time = summarize_repeats({0.9, 1.0, 1.1}, {});
  const auto rate = summarize_ratio(work, time, {2 / 0.9, 2 / 1.0, 2 / 1.1});
  EXPECT_DOUBLE_EQ(rate.mean, 2.0);
  EXPECT_DOUBLE_EQ(rate.ci.low, 2 / (1.0 + time.ci95));
  EXPECT_DOUBLE_EQ(*rate.ci.high, 2 / (1.0 - time.ci95));
  EXPECT_GT(*rate.ci.high - rate.mean, rate.mean - rate.ci.low);  // skewed, as a rate over a time is
  const auto rec = rate.to_record();
  EXPECT_EQ(rec.at("n").integer(), 3);
  ratio_summary unbounded;
  unbounded.ci = {0.5, std::nullopt};
  EXPECT_TRUE(unbounded.to_record().at("ci95_high").is_null());
}
