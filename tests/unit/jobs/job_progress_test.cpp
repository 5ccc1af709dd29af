// A running job's time left: the kind's estimate of each point at the job's own pace so far.
#include <jetperf/jobs/job_progress.hpp>

#include <gtest/gtest.h>

namespace jetperf::jobs {
namespace {

constexpr std::int64_t s = 1'000'000'000;

TEST(job_progress, on_pace_the_time_left_is_the_estimate_of_the_points_left) {
  job_progress p([] { return std::vector<double>{1, 1, 1, 1}; }, 1.0, 0, 0);
  EXPECT_DOUBLE_EQ(p.point_done(0, 1 * s), 3.0);
  EXPECT_DOUBLE_EQ(p.point_done(1, 2 * s), 2.0);
  EXPECT_DOUBLE_EQ(p.actual_s(), 2.0);
}

TEST(job_progress, a_slower_job_weighs_its_own_pace_against_the_kinds_calibration) {
  // Twice as slow as estimated: the pace is (2 + 0.4 x 1) / (1 + 0.4), 0.4 s being a tenth of the
  // job, the weight its calibration keeps.
  job_progress p([] { return std::vector<double>{1, 1, 1, 1}; }, 1.0, 0, 0);
  EXPECT_NEAR(p.point_done(0, 2 * s), 3.0 * 2.4 / 1.4, 1e-6);
  // A kind that past jobs found twice as slow starts from that.
  job_progress q([] { return std::vector<double>{1, 1, 1, 1}; }, 2.0, 0, 0);
  EXPECT_NEAR(q.point_done(0, 1 * s), 3.0 * 1.8 / 1.4, 1e-6);
}

TEST(job_progress, a_resumed_job_counts_from_its_first_point_and_estimates_again_every_two_seconds) {
  int estimates = 0;
  double each = 1;
  job_progress p([&] { ++estimates; return std::vector<double>(5, each); }, 1.0, 2, 0);
  EXPECT_EQ(estimates, 1);
  each = 2;  // the cost model learnt the runs take twice as long
  EXPECT_DOUBLE_EQ(p.point_done(2, 1 * s), 2.0) << "within 2 s: the first estimate";
  EXPECT_EQ(estimates, 1);
  // Taken again: 2 s per point, 4 s predicted for the two done, a tenth of the job (1 s) weighed.
  EXPECT_NEAR(p.point_done(3, 3 * s), 2.0 * (3 + 1.0) / (4 + 1.0), 1e-6);
  EXPECT_EQ(estimates, 2);
  EXPECT_DOUBLE_EQ(p.estimated_s(4), 4.0) << "points 2 and 3 at 2 s each";
  EXPECT_DOUBLE_EQ(p.estimated_s(99), 6.0) << "to the end";
}

}  // namespace
}  // namespace jetperf::jobs
