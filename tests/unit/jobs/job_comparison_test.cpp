// Two jobs compared point by point: pairing by parameters (repeats aside), Welch's interval on
// the ratio, and the words that say which way a metric moved.
#include <cmath>

#include <gtest/gtest.h>

#include <jetperf/common/row.hpp>
#include <jetperf/jobs/job_comparison.hpp>

namespace jetperf::jobs {
namespace {

namespace cols {
inline constexpr column_key<double> time_s{"time_s"};
inline constexpr column_key<double> time_sd_s{"time_sd_s"};
inline constexpr column_key<std::int64_t> runs{"runs"};
inline constexpr column_key<double> rate{"rate"};
inline constexpr column_key<double> power_w{"power_w"};
inline constexpr column_key<double> hidden{"hidden"};
}  // namespace cols

std::vector<column> columns() {
  return {declare(column_key<std::int64_t>{"size"}, column_role::parameter, "", "", true),
          with_spread(declare(cols::time_s, column_role::metric, "s", "", true, true), cols::time_sd_s, cols::runs),
          declare(cols::time_sd_s, column_role::metric, "s", "", true),
          declare(cols::runs, column_role::metric, "", "", true),
          declare(cols::rate, column_role::metric, "1/s", "", true),
          declare(cols::power_w, column_role::metric, "W", "", true),
          declare(cols::hidden, column_role::metric, "W", "", false)};
}

point_row point(std::int64_t size, std::int64_t repeat, double time_s, double power_w, double sd = -1,
                std::int64_t runs = 0, const char* status = "ok") {
  point_row p;
  p.status = status;
  p.params.set("size", cell(size));
  p.params.set("repeat", cell(repeat));
  p.metrics.set(cols::time_s, time_s);
  p.metrics.set(cols::rate, 1.0 / time_s);
  p.metrics.set(cols::power_w, power_w);
  p.metrics.set(cols::hidden, 1.0);
  if (sd >= 0) {
    p.metrics.set(cols::time_sd_s, sd);
    p.metrics.set(cols::runs, runs);
  }
  return p;
}

const metric_comparison& metric(const point_pair& p, const std::string& name) {
  for (const auto& m : p.metrics)
    if (m.metric == name) return m;
  throw std::runtime_error("no metric " + name);
}

TEST(job_comparison, repeats_pair_by_parameters_and_a_slower_b_regresses) {
  // Size 64: b about 20% slower beyond the repeats' noise; size 128: the same times.
  const std::vector<point_row> a{point(64, 0, 1.00, 5.0), point(64, 1, 1.02, 5.1), point(64, 2, 0.98, 4.9),
                                 point(128, 0, 2.00, 6.0), point(128, 1, 2.02, 6.0), point(128, 2, 1.98, 6.0)};
  const std::vector<point_row> b{point(64, 0, 1.20, 5.0), point(64, 1, 1.22, 5.1), point(64, 2, 1.18, 4.9),
                                 point(128, 0, 2.01, 6.0), point(128, 1, 1.99, 6.0), point(128, 2, 2.00, 6.0)};
  const auto c = compare_jobs(columns(), a, b, 0.05);
  ASSERT_EQ(c.pairs.size(), 2u);
  EXPECT_EQ(c.only_in_a, 0u);
  EXPECT_EQ(c.only_in_b, 0u);
  const auto& slow = metric(c.pairs[0], "time_s");
  EXPECT_EQ(c.pairs[0].params.find("size")->integer(), 64);
  EXPECT_EQ(c.pairs[0].params.find("repeat"), nullptr);
  EXPECT_EQ(c.pairs[0].a_points, 3u);
  EXPECT_EQ(slow.test, comparison_test::repeats);
  EXPECT_NEAR(slow.ratio.ratio, 1.2, 1e-9);
  EXPECT_LT(slow.ratio.lo, 1.2);
  EXPECT_GT(slow.ratio.lo, 1.1);
  EXPECT_GT(slow.ratio.hi, 1.2);
  EXPECT_LT(slow.ratio.hi, 1.3);
  EXPECT_EQ(slow.verdict, comparison_verdict::slower);
  EXPECT_TRUE(slow.regressed);
  // The rate fell as the time grew: slower too; power did not move: same.
  EXPECT_EQ(metric(c.pairs[0], "rate").verdict, comparison_verdict::slower);
  EXPECT_EQ(metric(c.pairs[0], "power_w").verdict, comparison_verdict::same);
  EXPECT_EQ(metric(c.pairs[1], "time_s").verdict, comparison_verdict::same);
  EXPECT_EQ(c.regressions, 2u);
  // Only the kind's shown numeric metrics are compared, not the spread behind one of them.
  for (const auto& m : c.pairs[0].metrics) {
    EXPECT_NE(m.metric, "hidden");
    EXPECT_NE(m.metric, "time_sd_s");
    EXPECT_NE(m.metric, "runs");
  }
}

TEST(job_comparison, a_difference_within_the_threshold_or_the_noise_is_the_same) {
  // 3% faster beyond the noise, under a 5% threshold; then 30% apart within a wide noise.
  const std::vector<point_row> a{point(64, 0, 1.000, 5.0), point(64, 1, 1.001, 5.0), point(64, 2, 0.999, 5.0),
                                 point(32, 0, 1.0, 5.0), point(32, 1, 2.0, 5.0), point(32, 2, 0.5, 5.0)};
  const std::vector<point_row> b{point(64, 0, 0.970, 5.0), point(64, 1, 0.971, 5.0), point(64, 2, 0.969, 5.0),
                                 point(32, 0, 1.3, 5.0), point(32, 1, 2.6, 5.0), point(32, 2, 0.65, 5.0)};
  const auto c = compare_jobs(columns(), a, b, 0.05);
  ASSERT_EQ(c.pairs.size(), 2u);
  const auto& close = metric(c.pairs[0], "time_s");
  EXPECT_TRUE(close.ratio.differs());
  EXPECT_EQ(close.verdict, comparison_verdict::same);
  EXPECT_EQ(compare_jobs(columns(), a, b, 0.01).pairs[0].metrics[0].verdict, comparison_verdict::faster);
  const auto& noisy = metric(c.pairs[1], "time_s");
  EXPECT_FALSE(noisy.ratio.differs());
  EXPECT_EQ(noisy.verdict, comparison_verdict::same);
  EXPECT_EQ(c.regressions, 0u);
}

TEST(job_comparison, single_points_are_tested_on_their_windows_and_without_one_are_unknown) {
  // One point a side: the window's runs (sd and count) carry the test for time_s; the rate has
  // no spread declared, so it has no verdict.
  const std::vector<point_row> a{point(64, 0, 1.00, 5.0, 0.05, 100)};
  const std::vector<point_row> b{point(64, 0, 0.80, 6.0, 0.04, 100)};
  const auto c = compare_jobs(columns(), a, b, 0.05);
  ASSERT_EQ(c.pairs.size(), 1u);
  const auto& t = metric(c.pairs[0], "time_s");
  EXPECT_EQ(t.test, comparison_test::window);
  EXPECT_EQ(t.a.n, 100);
  EXPECT_NEAR(t.ratio.ratio, 0.8, 1e-12);
  EXPECT_EQ(t.verdict, comparison_verdict::faster);
  EXPECT_FALSE(t.regressed);
  const auto& rate = metric(c.pairs[0], "rate");
  EXPECT_EQ(rate.test, comparison_test::none);
  EXPECT_EQ(rate.verdict, comparison_verdict::unknown);
  EXPECT_NEAR(rate.ratio.ratio, 1.25, 1e-12);
}

TEST(job_comparison, points_only_one_job_ran_or_that_did_not_succeed_are_counted_apart) {
  const std::vector<point_row> a{point(64, 0, 1.0, 5.0), point(128, 0, 2.0, 5.0), point(256, 0, 3.0, 5.0, -1, 0, "failed")};
  const std::vector<point_row> b{point(64, 0, 1.0, 5.0), point(512, 0, 4.0, 5.0), point(256, 0, 3.0, 5.0)};
  const auto c = compare_jobs(columns(), a, b, 0.05);
  ASSERT_EQ(c.pairs.size(), 1u);
  EXPECT_EQ(c.pairs[0].params.find("size")->integer(), 64);
  EXPECT_EQ(c.only_in_a, 1u);  // 128
  EXPECT_EQ(c.only_in_b, 2u);  // 512, and 256 whose a point failed
}

TEST(welch_ratio, matches_a_hand_computed_interval) {
  // a: mean 10, sd 1, n 5; b: mean 12, sd 2, n 5. Relative variances 0.002 and 0.00556, Welch dof
  // (0.00756)^2 / (0.002^2/4 + 0.00556^2/4) = 6.55 -> t95(6) = 2.447.
  const auto r = stats::welch_ratio({10, 1, 5}, {12, 2, 5});
  ASSERT_TRUE(r.valid);
  EXPECT_NEAR(r.ratio, 1.2, 1e-12);
  const double va = 1.0 / (5 * 100), vb = 4.0 / (5 * 144);
  EXPECT_NEAR(r.dof, (va + vb) * (va + vb) / (va * va / 4 + vb * vb / 4), 1e-9);
  const double half = 2.447 * std::sqrt(va + vb);
  EXPECT_NEAR(r.lo, 1.2 * std::exp(-half), 1e-3);
  EXPECT_NEAR(r.hi, 1.2 * std::exp(half), 1e-3);
  EXPECT_FALSE(r.differs());  // 0.97 .. 1.48: b's wide spread leaves 1 inside
  EXPECT_TRUE(stats::welch_ratio({10, 1, 5}, {12, 0.5, 5}).differs());
  EXPECT_FALSE(stats::welch_ratio({10, 1, 1}, {12, 2, 5}).valid);
  EXPECT_FALSE(stats::welch_ratio({0, 1, 5}, {12, 2, 5}).valid);
}

}  // namespace
}  // namespace jetperf::jobs
