// The protocol `phases`: each phase's count, time and energy per rail from the samples over
// exactly its intervals, on a known power step.
#include <jetperf/measure/protocols/phases.hpp>

#include <gtest/gtest.h>

using namespace jetperf;
using measure::phase_interval;

namespace {

constexpr std::int64_t k_ms = 1'000'000;

const std::vector<telemetry::channel_info>& channels() {
  static const std::vector<telemetry::channel_info> c{{"rail.CPU", "W", telemetry::channel_kind::power, "t"},
                                                      {"power.total", "W", telemetry::channel_kind::power, "t"},
                                                      {"temp.CPU", "C", telemetry::channel_kind::temperature, "t"}};
  return c;
}

// Total power steps from 4 W to 10 W at t = 1 s; rail CPU is 1 W then 6 W; the CPU at 40 C;
// samples every 100 ms from 0 to 2 s.
std::vector<telemetry::sample> power_step() {
  std::vector<telemetry::sample> samples;
  for (std::int64_t t = 0; t <= 2000 * k_ms; t += 100 * k_ms) {
    const bool busy = t >= 1000 * k_ms;
    samples.push_back({0, t, busy ? 6.0 : 1.0});
    samples.push_back({1, t, busy ? 10.0 : 4.0});
    samples.push_back({2, t, 40.0});
  }
  return samples;
}

}  // namespace

TEST(phases_protocol, integrates_the_total_and_each_rail_over_a_phases_intervals) {
  // "idle" covers 0.2..0.6 s twice over, "busy" 1.2..1.7 s.
  const measure::phases_protocol protocol(channels(), power_step(), 1, 4.0);
  const auto r = protocol({{"idle", 200 * k_ms, 600 * k_ms, true},
                           {"idle", 200 * k_ms, 600 * k_ms, true},
                           {"busy", 1200 * k_ms, 1700 * k_ms, true}});
  ASSERT_EQ(r.phases.size(), 2u);
  const auto& idle = r.phases.at("idle");
  EXPECT_EQ(idle.count, 2u);
  EXPECT_EQ(idle.unclosed, 0u);
  EXPECT_NEAR(idle.time_s, 0.8, 1e-12);
  EXPECT_NEAR(*idle.energy_j, 3.2, 1e-9);
  EXPECT_NEAR(*idle.power_w, 4.0, 1e-9);
  EXPECT_NEAR(*idle.dynamic_energy_j, 0.0, 1e-9);
  EXPECT_NEAR(idle.rail_energy_j.at("CPU"), 0.8, 1e-9);
  EXPECT_NEAR(idle.rail_power_w.at("CPU"), 1.0, 1e-9);
  EXPECT_EQ(idle.samples, 10u);  // 0.2, 0.3, ... 0.6 s, twice
  const auto& busy = r.phases.at("busy");
  EXPECT_EQ(busy.count, 1u);
  EXPECT_NEAR(*busy.energy_j, 5.0, 1e-9);
  EXPECT_NEAR(*busy.power_w, 10.0, 1e-9);
  EXPECT_NEAR(*busy.dynamic_energy_j, 3.0, 1e-9);
  EXPECT_NEAR(busy.rail_energy_j.at("CPU"), 3.0, 1e-9);
  EXPECT_NEAR(busy.rail_power_w.at("CPU"), 6.0, 1e-9);
  EXPECT_EQ(busy.samples, 6u);
  // Only rails are rails: the temperature is no phase's energy.
  EXPECT_EQ(busy.rail_energy_j.size(), 1u);
}

TEST(phases_protocol, an_interval_across_the_step_gets_the_interpolated_mean) {
  // 0.95..1.05 s: the samples at 0.9 s (4 W) and 1.0 s (10 W) are joined by a line, so 7 W at
  // 0.95 s; then (7 + 10) / 2 W over the first 50 ms and 10 W over the next: 0.925 J.
  const measure::phases_protocol protocol(channels(), power_step(), 1, std::nullopt);
  const auto r = protocol({{"edge", 950 * k_ms, 1050 * k_ms, true}});
  const auto& edge = r.phases.at("edge");
  EXPECT_NEAR(*edge.energy_j, 0.925, 1e-9);
  EXPECT_NEAR(*edge.power_w, 9.25, 1e-9);
  EXPECT_FALSE(edge.dynamic_energy_j);  // no idle baseline
}

TEST(phases_protocol, without_a_total_channel_or_samples_a_phase_has_its_count_and_time_only) {
  const measure::phases_protocol no_total(channels(), power_step(), std::nullopt, 4.0);
  const auto r = no_total({{"busy", 1200 * k_ms, 1700 * k_ms, false}});
  const auto& busy = r.phases.at("busy");
  EXPECT_EQ(busy.count, 1u);
  EXPECT_EQ(busy.unclosed, 1u);
  EXPECT_NEAR(busy.time_s, 0.5, 1e-12);
  EXPECT_FALSE(busy.energy_j);
  EXPECT_FALSE(busy.power_w);
  EXPECT_FALSE(busy.dynamic_energy_j);
  EXPECT_EQ(busy.samples, 0u);
  EXPECT_NEAR(busy.rail_power_w.at("CPU"), 6.0, 1e-9);  // the rails still are

  const measure::phases_protocol nothing({}, {}, std::nullopt, 4.0);
  const auto n = nothing({{"load", 0, 250 * k_ms, true}, {"load", 300 * k_ms, 300 * k_ms, true}});
  const auto& load = n.phases.at("load");
  EXPECT_EQ(load.count, 2u);
  EXPECT_NEAR(load.time_s, 0.25, 1e-12);
  EXPECT_FALSE(load.energy_j);
  EXPECT_TRUE(load.rail_energy_j.empty());
}

TEST(phases_protocol, a_phase_of_no_time_has_no_mean_power) {
  const measure::phases_protocol protocol(channels(), power_step(), 1, 4.0);
  const auto r = protocol({{"instant", 1500 * k_ms, 1500 * k_ms, true}});
  const auto& instant = r.phases.at("instant");
  EXPECT_EQ(instant.count, 1u);
  EXPECT_EQ(instant.time_s, 0.0);
  EXPECT_FALSE(instant.power_w);
  EXPECT_TRUE(instant.rail_power_w.empty());
}
