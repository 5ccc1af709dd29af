// The layer backends' work log that a simulated board's power model reads: shares of the window
// each thread worked, the work-weighted mean of a function of its density, and nothing kept
// while no simulator listens.
#include <jetperf/common/work_activity.hpp>

#include <chrono>
#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <vector>
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

TEST(work_activity, a_source_working_since_before_the_ring_holds_is_still_working) {
  // The log keeps 16k notes; a thread in one long op notes nothing while others note thousands.
  activity::enable();
  activity::note(100, 7, 5.0);
  for (std::int64_t t = 0; t < 20000; ++t) activity::note(1000 + 2 * t, 8, t % 2 ? std::optional<double>() : 1.0);
  const auto w = activity::work_between(30000, 40000, identity);
  ASSERT_EQ(w.shares.count(7), 1u);
  EXPECT_NEAR(w.shares.at(7), 1.0, 1e-12);
  EXPECT_NEAR(w.shares.at(8), 0.5, 1e-3);
  activity::disable();
}

TEST(work_activity, windows_anywhere_in_the_log_match_a_walk_over_all_of_it) {
  // The log is read back from its newest note only as far as each window needs: three sources
  // noting at random, slightly out of order between them (a note's time is taken before the
  // lock), against every window's shares computed from the whole history.
  activity::enable();
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> gap(1, 400), src(1, 3), late(0, 50), dense(0, 3);
  struct noted { std::int64_t t; int source; std::optional<double> d; };
  std::vector<noted> all;
  std::int64_t t = 1000;
  for (int i = 0; i < 3000; ++i) {
    t += gap(rng);
    const int d = dense(rng);
    const noted n{t - late(rng), src(rng), d == 0 ? std::optional<double>() : std::optional<double>(d)};
    // Each source's own notes stay in order.
    bool in_order = true;
    for (auto it = all.rbegin(); it != all.rend(); ++it)
      if (it->source == n.source) {
        in_order = it->t <= n.t;
        break;
      }
    if (!in_order) continue;
    all.push_back(n);
    activity::note(n.t, n.source, n.d);
  }
  for (std::int64_t from = 2000; from < t; from += 37'011) {
    const std::int64_t to = from + 20'000;
    std::map<int, double> expect;
    for (int s = 1; s <= 3; ++s) {
      std::optional<double> state;
      std::int64_t since = 0;
      double worked = 0;
      for (const auto& n : all) {
        if (n.source != s) continue;
        if (state) worked += std::max<std::int64_t>(0, std::min(n.t, to) - std::max(since, from));
        state = n.d;
        since = n.t;
      }
      if (state) worked += std::max<std::int64_t>(0, to - std::max(since, from));
      if (worked > 0) expect[s] = worked / 20'000.0;
    }
    const auto w = activity::work_between(from, to, identity);
    ASSERT_EQ(w.shares.size(), expect.size()) << "window from " << from;
    for (const auto& [s, share] : expect) EXPECT_NEAR(w.shares.at(s), share, 1e-12) << "source " << s << " from " << from;
  }
  activity::disable();
}
