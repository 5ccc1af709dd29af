// A window other processes took CPU time from is measured again, up to the spec's max_retries;
// the window kept carries others' share and the retries, flagged contended when it too was over
// the threshold. The skeleton runs on virtual time with a scripted CPU usage source.
#include <jetperf/store/cell_json.hpp>
#include <jetperf/measure/protocols/point.hpp>

#include <deque>

#include <gtest/gtest.h>

#include "support/scripted_cpu_usage.hpp"
#include "support/virtual_clock.hpp"

namespace jetperf::measure {
namespace {

struct contention_run {
  point_measurement m;
  std::vector<timeline_span> spans;
  int windows = 0;
};

contention_run run_with(std::deque<double> shares, contention_policy policy) {
  test::virtual_clock time;
  test::scripted_cpu_usage usage(time, std::move(shares));
  contention_run out;
  point_context ctx;
  ctx.time = &time;
  ctx.cpu_usage = &usage;
  ctx.timeline = [&](timeline_span s) { out.spans.push_back(std::move(s)); };
  point_plan plan;
  plan.idle_s = 0;
  plan.fixed = fixed_protocol{0.05, 0};
  plan.contention = policy;
  plan.run_once = [&time] {
    time.sleep_until(time.now_ns() + 1'000'000);
    return 0.001;
  };
  idle_power_cache idle;
  out.m = run_point(ctx, platform::board_setting{}, plan, idle);
  out.windows = usage.windows;
  return out;
}

std::size_t contended_windows(const std::vector<timeline_span>& spans) {
  return static_cast<std::size_t>(
      std::count_if(spans.begin(), spans.end(), [](const timeline_span& s) { return s.name == "contended window"; }));
}

TEST(point_protocol_contention, a_contended_window_is_measured_again_and_a_clean_one_kept) {
  const auto r = run_with({0.40, 0.02}, contention_policy{0.05, 2});
  EXPECT_EQ(r.windows, 2);
  ASSERT_TRUE(r.m.window.contention);
  EXPECT_NEAR(r.m.window.contention->others_cpu_share, 0.02, 1e-9);
  EXPECT_EQ(r.m.window.contention->retries, 1);
  EXPECT_FALSE(r.m.window.contention->contended);
  ASSERT_EQ(contended_windows(r.spans), 1u);
  const auto contended = std::find_if(r.spans.begin(), r.spans.end(), [](const timeline_span& s) { return s.name == "contended window"; });
  EXPECT_NEAR(jetperf::to_json(contended->args)["others_cpu_share"].get<double>(), 0.40, 1e-9);
}

TEST(point_protocol_contention, after_max_retries_the_last_window_is_kept_and_flagged) {
  const auto r = run_with({0.30, 0.20, 0.10, 0.0}, contention_policy{0.05, 2});
  EXPECT_EQ(r.windows, 3);  // the first and two retries; the fourth share is never asked for
  ASSERT_TRUE(r.m.window.contention);
  EXPECT_NEAR(r.m.window.contention->others_cpu_share, 0.10, 1e-9);
  EXPECT_EQ(r.m.window.contention->retries, 2);
  EXPECT_TRUE(r.m.window.contention->contended);
  EXPECT_EQ(contended_windows(r.spans), 2u);
  // No retries asked: the first window is kept, flagged.
  const auto once = run_with({0.30}, contention_policy{0.05, 0});
  EXPECT_EQ(once.windows, 1);
  EXPECT_TRUE(once.m.window.contention->contended);
  // A higher threshold lets the same window through.
  EXPECT_FALSE(run_with({0.30}, contention_policy{0.5, 2}).m.window.contention->contended);
}

TEST(point_protocol_contention, without_a_usage_source_nothing_is_measured) {
  test::virtual_clock time;
  point_context ctx;
  ctx.time = &time;
  point_plan plan;
  plan.idle_s = 0;
  plan.fixed = fixed_protocol{0.01, 0};
  plan.run_once = [&time] {
    time.sleep_until(time.now_ns() + 1'000'000);
    return 0.001;
  };
  idle_power_cache idle;
  EXPECT_FALSE(run_point(ctx, platform::board_setting{}, plan, idle).window.contention);
}

}  // namespace
}  // namespace jetperf::measure
