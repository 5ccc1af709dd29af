// The layer backends' work log that a simulated board's power model reads: shares of the window
// each thread worked, the work-weighted mean of a function of its density, and nothing kept
// while no simulator listens.
#include <jetperf/common/work_activity.hpp>

#include <chrono>
#include <limits>
#include <thread>

#include <gtest/gtest.h>

using namespace jetperf;

namespace {
double identity(double x) { return x; }
}  // namespace

TEST(work_activity, shares_and_the_work_weighted_mean_over_a_window) {
  activity::enable();
  // Thread 1: density 10 from 1000 to 1400, then 2 until 1800, then idle. Thread 2: density 4
  // from before the window (500) to its end.
  activity::note(500, 2, 4.0);
  activity::note(1000, 1, 10.0);
  activity::note(1400, 1, 2.0);
  activity::note(1800, 1, std::nullopt);
  const auto w = activity::work_between(1000, 2000, identity);
  ASSERT_EQ(w.shares.size(), 2u);
  EXPECT_NEAR(w.shares.at(1), 0.8, 1e-12);
  EXPECT_NEAR(w.shares.at(2), 1.0, 1e-12);
  // (400 x 10 + 400 x 2 + 1000 x 4) / 1800
  ASSERT_TRUE(w.mean);
  EXPECT_NEAR(*w.mean, 8800.0 / 1800.0, 1e-12);
  // A window after thread 1 stopped sees thread 2 only.
  const auto later = activity::work_between(1900, 2000, identity);
  EXPECT_EQ(later.shares.count(1), 0u);
  EXPECT_NEAR(*later.mean, 4.0, 1e-12);
  activity::disable();
}

TEST(work_activity, nothing_is_kept_while_no_simulator_listens) {
  ASSERT_FALSE(activity::enabled());
  activity::begin_work(5.0);
  activity::end_work();
  activity::enable();
  const auto w = activity::work_between(0, std::numeric_limits<std::int64_t>::max(), identity);
  EXPECT_TRUE(w.shares.empty());
  EXPECT_FALSE(w.mean);
  // Enabled, the calling thread's own work is noted on the monotonic clock.
  activity::begin_work(3.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  activity::end_work();
  const auto noted = activity::work_between(0, std::numeric_limits<std::int64_t>::max(), identity);
  EXPECT_EQ(noted.shares.size(), 1u);
  ASSERT_TRUE(noted.mean);
  EXPECT_DOUBLE_EQ(*noted.mean, 3.0);
  activity::disable();
}
