#include <jetperf/measure/measurement_loop.hpp>
#include <jetperf/stats/rse_projection.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "support/fake_sources.hpp"
#include "support/virtual_clock.hpp"

using namespace jetperf::measure;

namespace {
// The window on virtual time: each iteration below advances it, so the loop's decisions over
// tenths of a second take no time and come out the same every run.
jetperf::test::virtual_clock g_clock;

// Takes 0.5 ms of the window's time and reports a fixed duration: a perfectly stable "kernel".
timed_iteration stable_iteration(int* calls) {
  return [calls] {
    ++*calls;
    g_clock.sleep_for(500'000);
    return 0.002;
  };
}
loop_options options() {
  loop_options o;
  o.time = &g_clock;
  o.stop.min_time_s = 0.05;
  o.stop.max_time_s = 0.3;
  o.stop.min_samples = 5;
  o.stop.target_rse_time = 0.01;
  o.stop.target_rse_power = 0.01;
  o.boundary_s = 0.005;
  o.power_check_period_s = 0.01;
  return o;
}
}  // namespace

TEST(measurement_loop, converges_with_stable_time_and_power) {
  jetperf::test::fake_source src;
  int calls = 0;
  const auto r = measurement_loop(options(), &src).run(stable_iteration(&calls));
  EXPECT_EQ(r.decision.reason, stop_reason::converged);
  EXPECT_EQ(r.times_s.size(), static_cast<std::size_t>(calls));
  EXPECT_GE(r.times_s.size(), 5u);
  EXPECT_DOUBLE_EQ(r.latency.mean_s, 0.002);
  EXPECT_GE(static_cast<double>(r.t_end_ns - r.t_start_ns) * 1e-9, 0.05);
  ASSERT_TRUE(r.power && r.power->total_power_w);
  EXPECT_DOUBLE_EQ(*r.power->total_power_w, 7.5);
  // Boundary trimming: no sample closer than 5 ms to either end.
  for (const auto& s : r.samples) {
    EXPECT_GE(s.t_ns, r.t_start_ns + 5000000);
    EXPECT_LE(s.t_ns, r.t_end_ns - 5000000);
  }
}

TEST(measurement_loop, noisy_power_times_out_naming_power_rse) {
  jetperf::test::fake_source src;
  // Slow, large swings: the batch means never agree within 1%.
  src.power = [](std::int64_t t) { return (t / 20000000) % 2 ? 2.0 : 12.0; };
  int calls = 0;
  auto o = options();
  o.stop.max_time_s = 0.15;
  const auto r = measurement_loop(o, &src).run(stable_iteration(&calls));
  EXPECT_EQ(r.decision.reason, stop_reason::max_time);
  EXPECT_EQ(r.decision.unmet, std::vector<std::string>{"power_rse"});
}

TEST(measurement_loop, noisy_time_without_telemetry_times_out_naming_time_rse) {
  int calls = 0;
  auto o = options();
  o.stop.max_time_s = 0.1;
  const auto r = measurement_loop(o, nullptr).run([&calls] {
    g_clock.sleep_for(200'000);
    return ++calls % 2 ? 0.001 : 0.1;
  });
  EXPECT_EQ(r.decision.reason, stop_reason::max_time);
  EXPECT_EQ(r.decision.unmet, std::vector<std::string>{"time_rse"});
  EXPECT_FALSE(r.power.has_value());
}

TEST(measurement_loop, fixed_duration_and_cancel) {
  auto o = options();
  o.stop.fixed_duration_s = 0.05;
  int calls = 0;
  const auto r = measurement_loop(o, nullptr).run(stable_iteration(&calls));
  EXPECT_EQ(r.decision.reason, stop_reason::fixed_duration);
  EXPECT_GE(static_cast<double>(r.t_end_ns - r.t_start_ns) * 1e-9, 0.05);

  std::atomic<bool> cancel{false};
  o.cancel = &cancel;
  o.stop.fixed_duration_s = 100.0;
  const auto c = measurement_loop(o, nullptr).run([&cancel] {
    cancel = true;
    g_clock.sleep_for(1'000'000);
    return 0.001;
  });
  EXPECT_TRUE(c.cancelled);
  EXPECT_EQ(c.decision.reason, stop_reason::cancelled);
  EXPECT_EQ(c.times_s.size(), 1u);
}

TEST(measurement_loop, steady_clock_iteration_times_the_call) {
  const auto it = steady_clock_iteration([] { std::this_thread::sleep_for(std::chrono::milliseconds(5)); });
  const double t = it();
  EXPECT_GE(t, 0.005);
  EXPECT_LT(t, 0.5);
}

TEST(measurement_loop, a_window_whose_rse_cannot_reach_its_target_stops_early_with_the_projection) {
  // Heavy-tailed runs (one in ten takes 100x as long): the RSE at 0.1 s is about 0.1, and even
  // falling as 1/sqrt(t) it would be about 0.02 at max_time_s, twice the target.
  int calls = 0;
  auto o = options();
  o.stop.max_time_s = 2.0;
  o.stop.stop_when_out_of_reach = true;
  const auto heavy_tails = [&calls] {
    g_clock.sleep_for(200'000);
    return ++calls % 10 ? 0.001 : 0.1;
  };
  const auto r = measurement_loop(o, nullptr).run(heavy_tails);
  EXPECT_EQ(r.decision.reason, stop_reason::projected_max_time);
  EXPECT_EQ(r.decision.unmet, std::vector<std::string>{"time_rse"});
  ASSERT_TRUE(r.projected_rse);
  EXPECT_GT(*r.projected_rse, 0.01 * jetperf::stats::k_projection_margin);
  const double window_s = static_cast<double>(r.t_end_ns - r.t_start_ns) * 1e-9;
  EXPECT_LT(window_s, 0.2) << "stopped once its checkpoints spanned 2x (0.05 s -> 0.1 s), not at 2 s";
  // Without the option (a layer's isolated window) it runs to max_time_s as before.
  o.stop.stop_when_out_of_reach = false;
  const auto whole = measurement_loop(o, nullptr).run(heavy_tails);
  EXPECT_EQ(whole.decision.reason, stop_reason::max_time);
  EXPECT_FALSE(whole.projected_rse);
}

TEST(measurement_loop, a_window_that_would_converge_before_max_time_is_not_stopped_on_its_projection) {
  // Runs of 1.0 and 1.2 ms in turn (CV about 0.09): the RSE reaches 0.002 after about 2000 runs,
  // 0.4 s of the window's 0.6 s; early on it is well above that, but falling as it should.
  int calls = 0;
  auto o = options();
  o.stop.max_time_s = 0.6;
  o.stop.target_rse_time = 0.002;
  o.stop.stop_when_out_of_reach = true;
  const auto r = measurement_loop(o, nullptr).run([&calls] {
    g_clock.sleep_for(200'000);
    return ++calls % 2 ? 0.001 : 0.0012;
  });
  EXPECT_EQ(r.decision.reason, stop_reason::converged);
  EXPECT_FALSE(r.projected_rse);
  const double window_s = static_cast<double>(r.t_end_ns - r.t_start_ns) * 1e-9;
  EXPECT_GT(window_s, 0.1);
  EXPECT_LT(window_s, 0.6);
}
