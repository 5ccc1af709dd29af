#include <jetperf/measure/power_window.hpp>
#include <jetperf/measure/throttle.hpp>

#include <gtest/gtest.h>

using namespace jetperf::measure;
using jetperf::telemetry::channel_info;
using jetperf::telemetry::channel_kind;
using jetperf::telemetry::sample;

namespace {
constexpr std::int64_t ms = 1000000;

std::vector<channel_info> channels() {
  return {{"power.total", "W", channel_kind::power, "t"},
          {"rail.VDD_CPU", "W", channel_kind::power, "t"},
          {"clock.gpu", "Hz", channel_kind::clock, "t"},
          {"temp.CPU", "C", channel_kind::temperature, "t"}};
}
}  // namespace

TEST(trim_window, cuts_the_boundary_from_both_ends) {
  std::vector<sample> s;
  for (int i = 0; i <= 10; ++i) s.push_back({0, i * 100 * ms, 1.0});  // 0 .. 1 s
  const auto t = trim_window(s, 0, 1000 * ms, 0.2);
  ASSERT_EQ(t.size(), 7u);  // 200 .. 800 ms inclusive
  EXPECT_EQ(t.front().t_ns, 200 * ms);
  EXPECT_EQ(t.back().t_ns, 800 * ms);
  EXPECT_TRUE(trim_window(s, 0, 1000 * ms, 0.6).empty());
  EXPECT_EQ(trim_window(s, 0, 1000 * ms, 0).size(), 11u);
}

TEST(trapezoid, constant_and_ramp_have_known_integrals) {
  EXPECT_NEAR(trapezoid_integral({{0, 7.5}, {1000 * ms, 7.5}, {2000 * ms, 7.5}}), 15.0, 1e-12);
  std::vector<std::pair<std::int64_t, double>> ramp;
  for (int i = 0; i <= 100; ++i) ramp.emplace_back(i * 10 * ms, i * 0.1);  // 0 -> 10 W over 1 s
  EXPECT_NEAR(trapezoid_integral(ramp), 5.0, 1e-9);
  EXPECT_DOUBLE_EQ(trapezoid_integral({{0, 3.0}}), 0.0);
}

TEST(summarize_window, per_channel_means_energy_and_total) {
  std::vector<sample> s;
  for (int i = 0; i <= 1000; ++i) {
    s.push_back({0, i * ms, 7.5});
    s.push_back({1, i * ms, i % 2 ? 3.0 : 1.0});
    s.push_back({2, i * ms, 1e9});
    s.push_back({3, i * ms, 40.0 + (i == 500 ? 5.0 : 0.0)});
  }
  s.push_back({9, 0, 100.0});  // unknown channel: ignored
  const auto p = summarize_window(channels(), s, 0);
  ASSERT_TRUE(p.total_power_w.has_value());
  EXPECT_DOUBLE_EQ(*p.total_power_w, 7.5);
  EXPECT_NEAR(*p.total_energy_j, 7.5, 1e-9);  // 7.5 W over 1 s
  EXPECT_DOUBLE_EQ(p.total_rse, 0.0);
  EXPECT_EQ(p.total_samples, 1001u);
  EXPECT_NEAR(p.channels.at(1).mean, 2.0, 1e-3);
  EXPECT_EQ(p.channels.at(1).name, "rail.VDD_CPU");
  EXPECT_DOUBLE_EQ(p.channels.at(2).energy_j, 0.0);  // not a power channel
  ASSERT_TRUE(p.temp_max_c.has_value());
  EXPECT_DOUBLE_EQ(*p.temp_max_c, 45.0);
  EXPECT_EQ(p.channels.count(9), 0u);
}

TEST(summarize_window, no_total_channel_means_no_total) {
  const auto p = summarize_window(channels(), {{1, 0, 2.0}}, std::nullopt);
  EXPECT_FALSE(p.total_power_w.has_value());
}

TEST(throttle, flags_clock_below_requested) {
  std::vector<sample> s = {{2, 0, 1.3e9}, {2, 1, 1.3e9}, {2, 2, 0.9e9}, {0, 3, 0.1}};
  const auto t = check_throttle(s, 2, 1.3e9);
  EXPECT_TRUE(t.throttled);
  EXPECT_EQ(t.samples, 3u);
  EXPECT_EQ(t.below, 1u);
  EXPECT_NEAR(t.min_ratio, 0.9 / 1.3, 1e-12);
  EXPECT_FALSE(check_throttle(s, 2, 0.9e9).throttled);
  // Read-back rounding within the tolerance is not throttling.
  EXPECT_FALSE(check_throttle({{2, 0, 1.2995e9}}, 2, 1.3e9).throttled);
}
