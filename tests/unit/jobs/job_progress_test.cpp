// A running job's time left: the kind's estimate of each point at the job's own pace so far, with
// as many windows per point as its points measured. Virtual time: the tests say when each point
// ended.
#include <jetperf/jobs/job_progress.hpp>

#include <gtest/gtest.h>

namespace jetperf::jobs {
namespace {

constexpr std::int64_t s = 1'000'000'000;

job_progress::estimate_fn each(double seconds, std::size_t points) {
  return [=](double) { return std::vector<double>(points, seconds); };
}

job_progress::prior calibrated(double factor) {
  job_progress::prior p;
  p.factor = factor;
  return p;
}

TEST(job_progress, on_pace_the_time_left_is_the_estimate_of_the_points_left) {
  job_progress p(each(1, 4), {}, 0, 0);
  EXPECT_DOUBLE_EQ(p.point_done(0, 1 * s), 3.0);
  EXPECT_DOUBLE_EQ(p.point_done(1, 2 * s), 2.0);
  EXPECT_DOUBLE_EQ(p.actual_s(), 2.0);
}

TEST(job_progress, the_first_point_leads_past_jobs_weigh_half_a_point) {
  // Five times slower than estimated: the pace is (5 + 0.5 x 1) / (1 + 0.5), half an average
  // point being what the kind's calibration weighs.
  job_progress p(each(1, 20), {}, 0, 0);
  EXPECT_NEAR(p.point_done(0, 5 * s), 19.0 * 5.5 / 1.5, 1e-6);
  // Within 2x of the 95 s the rest takes at that pace (the earlier rule, a tenth of the job
  // weighing the calibration, gave 19 x 7 / 3 = 44 s).
  EXPECT_GT(p.point_done(1, 10 * s), 0.5 * 90.0);
  // A kind that past jobs found twice as slow starts from that.
  job_progress q(each(1, 4), calibrated(2.0), 0, 0);
  EXPECT_NEAR(q.point_done(0, 1 * s), 3.0 * 2.0 / 1.5, 1e-6);
}

TEST(job_progress, contended_windows_measured_again_count_in_the_points_left) {
  // Each point: 1 s of idle baseline (the first only) and a 0.5 s window per time it is measured.
  // The host is loaded: every window is contended and measured twice more, and runs 1.5x slower.
  const auto estimate = [](double repeats) {
    std::vector<double> t(10, repeats * 0.5);
    t[0] += 1.0;
    return t;
  };
  std::vector<double> seen;
  job_progress p([&](double repeats) { seen.push_back(repeats); return estimate(repeats); }, {}, 0, 0);
  ASSERT_EQ(seen, std::vector<double>{1.0});
  const double first_s = 1.0 + 3 * 0.5 * 1.5, each_s = 3 * 0.5 * 1.5;
  const double eta = p.point_done(0, static_cast<std::int64_t>(first_s * s), 3.0);
  // Taken again at once with the windows it measured, past jobs' 1 weighing half a point.
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_NEAR(seen[1], 3.5 / 1.5, 1e-12);
  EXPECT_NEAR(p.window_repeats(), 3.5 / 1.5, 1e-12);
  const double truth = 9 * each_s;
  EXPECT_GT(eta, truth / 2) << "the first estimate after the first point, within 2x of the truth";
  EXPECT_LT(eta, truth * 2);
  // Blind to the windows (one per point, as estimates were before), the same pace gives 0.44x.
  job_progress blind([&](double) { return estimate(1.0); }, {}, 0, 0);
  EXPECT_LT(blind.point_done(0, static_cast<std::int64_t>(first_s * s)) / truth, 0.5);
  // The windows learned: what the job measured, for the next one.
  EXPECT_DOUBLE_EQ(p.windows(), 3.0);
  EXPECT_DOUBLE_EQ(p.window_points(), 1.0);
  p.point_done(1, static_cast<std::int64_t>((first_s + each_s) * s), 3.0);
  p.point_done(2, static_cast<std::int64_t>((first_s + 2 * each_s) * s), std::nullopt);  // one that measures none
  EXPECT_DOUBLE_EQ(p.windows(), 6.0);
  EXPECT_DOUBLE_EQ(p.window_points(), 2.0);
}

TEST(job_progress, past_jobs_window_repeats_start_the_estimate) {
  std::vector<double> seen;
  job_progress::prior before;
  before.window_repeats = 3;
  job_progress p([&](double repeats) { seen.push_back(repeats); return std::vector<double>(4, repeats); }, before, 0, 0);
  EXPECT_EQ(seen, std::vector<double>{3.0});
  // A quiet point (one window): (1 + 0.5 x 3) / 1.5.
  p.point_done(0, 1 * s, 1.0);
  EXPECT_NEAR(seen.back(), 2.5 / 1.5, 1e-12);
}

TEST(job_progress, the_basis_is_the_priors_until_a_point_ends_then_the_pace_of_the_points_finished) {
  job_progress::prior before;
  before.basis = {"cost_model", 12};
  job_progress p(each(1, 4), before, 0, 0);
  EXPECT_EQ(p.basis(), (store::estimate_basis{"cost_model", 12}));
  p.point_done(0, 1 * s);
  EXPECT_EQ(p.basis(), (store::estimate_basis{"pace", 1}));
  p.point_done(1, 2 * s);
  EXPECT_EQ(p.basis(), (store::estimate_basis{"pace", 2}));
  EXPECT_EQ(job_progress(each(1, 4), {}, 0, 0).basis(), (store::estimate_basis{"static", 0}));
}

TEST(job_progress, a_resumed_job_counts_from_its_first_point_and_estimates_again_every_two_seconds) {
  int estimates = 0;
  double each_s = 1;
  job_progress p([&](double) { ++estimates; return std::vector<double>(5, each_s); }, {}, 2, 0);
  EXPECT_EQ(estimates, 1);
  each_s = 2;  // the cost model learnt the runs take twice as long
  // Its first point: taken again at once, 2 s per point; 2 s taken, on pace: 2 points left.
  EXPECT_DOUBLE_EQ(p.point_done(2, 2 * s), 4.0);
  EXPECT_EQ(estimates, 2);
  EXPECT_EQ(p.basis(), (store::estimate_basis{"pace", 1})) << "its own points only";
  each_s = 4;
  // Within 2 s of the last estimate, and the windows unchanged: not taken again.
  EXPECT_NEAR(p.point_done(3, 3 * s), 2.0 * (3 + 1.0) / (4 + 1.0), 1e-6);
  EXPECT_EQ(estimates, 2);
  EXPECT_DOUBLE_EQ(p.estimated_s(4), 8.0) << "taken again: points 2 and 3 at 4 s each";
  EXPECT_DOUBLE_EQ(p.estimated_s(99), 12.0) << "to the end";
}

}  // namespace
}  // namespace jetperf::jobs
