#include <jetperf/telemetry/energy_meter.hpp>

#include <gtest/gtest.h>

#include <memory>

#include <jetperf/telemetry/sampler.hpp>

namespace jetperf::telemetry {
namespace {

constexpr std::int64_t ms = 1'000'000;

std::vector<channel_info> rails() {
  return {{"rail.VDD_GPU", "W", channel_kind::power, ""},
          {"rail.VDD_CPU", "W", channel_kind::power, ""},
          {"power.total", "W", channel_kind::power, ""},
          {"clock.gpu", "Hz", channel_kind::clock, ""}};
}

// Total = 2 + 3 W at every tick; GPU ramps linearly, so trapezoids are exact for it.
std::vector<sample> tick_at(std::int64_t t_ns, double gpu_w, double cpu_w) {
  return {{0, t_ns, gpu_w}, {1, t_ns, cpu_w}, {2, t_ns, gpu_w + cpu_w}, {3, t_ns, 1e9}};
}

TEST(energy_meter, integrates_known_samples_to_known_joules) {
  energy_meter m(rails(), 2);
  // 101 ticks 10 ms apart: 1 s. GPU ramps 0 -> 10 W (mean 5 W: 5 J), CPU constant 3 W (3 J).
  for (int i = 0; i <= 100; ++i) m.add(0, tick_at(i * 10 * ms, 0.1 * i, 3.0));
  const auto t = m.totals();
  ASSERT_EQ(t.channel_joules.size(), 4u);
  EXPECT_NEAR(t.channel_joules[0], 5.0, 1e-9);
  EXPECT_NEAR(t.channel_joules[1], 3.0, 1e-9);
  EXPECT_NEAR(t.channel_joules[2], 8.0, 1e-9);
  EXPECT_EQ(t.channel_joules[3], 0.0);  // a clock is not energy
  EXPECT_EQ(t.t_ns, 1000 * ms);          // exact as of the newest sample
  EXPECT_FALSE(t.running);
  EXPECT_FALSE(t.last_finished);
}

TEST(energy_meter, job_energy_covers_only_the_ticks_it_was_attached) {
  energy_meter m(rails(), 2);
  std::int64_t t = 0;
  for (int i = 0; i < 50; ++i, t += 10 * ms) m.add(0, tick_at(t, 1.0, 1.0));  // idle, 2 W
  // Job 7 attached for 201 ticks: 2 s at 10 W total = 20 J.
  for (int i = 0; i <= 200; ++i, t += 10 * ms) m.add(7, tick_at(t, 6.0, 4.0));
  auto totals = m.totals();
  ASSERT_TRUE(totals.running);
  EXPECT_EQ(totals.running->job_id, 7);
  EXPECT_NEAR(totals.running->joules, 20.0, 1e-9);
  // Job 8 follows at once: 7 becomes the last finished, with its energy frozen.
  for (int i = 0; i <= 100; ++i, t += 10 * ms) m.add(8, tick_at(t, 1.0, 1.0));
  totals = m.totals();
  ASSERT_TRUE(totals.last_finished);
  EXPECT_EQ(totals.last_finished->job_id, 7);
  EXPECT_NEAR(totals.last_finished->joules, 20.0, 1e-9);
  ASSERT_TRUE(totals.running);
  EXPECT_NEAR(totals.running->joules, 2.0, 1e-9);  // 1 s at 2 W
  // No job: 8 is the last finished, nothing runs; only two jobs are ever kept.
  m.add(0, tick_at(t, 1.0, 1.0));
  totals = m.totals();
  EXPECT_FALSE(totals.running);
  ASSERT_TRUE(totals.last_finished);
  EXPECT_EQ(totals.last_finished->job_id, 8);
}

TEST(energy_meter, counters_never_decrease_and_gaps_are_not_bridged) {
  energy_meter m(rails(), 2, 1000 * ms);
  double last = 0;
  std::int64_t t = 0;
  // Negative readings (a sensor offset) and a reading out of order add nothing.
  const double watts[] = {2.0, -5.0, 4.0, 3.0, -1.0, 6.0};
  for (double w : watts) {
    m.add(0, tick_at(t, w, 0.0));
    const double now = m.totals().channel_joules[0];
    EXPECT_GE(now, last);
    last = now;
    t += 100 * ms;
  }
  m.add(0, tick_at(t - 250 * ms, 100.0, 0.0));
  EXPECT_EQ(m.totals().channel_joules[0], last);
  // A gap longer than max_gap adds nothing; the next segment counts again.
  t += 10'000 * ms;
  m.add(0, tick_at(t, 6.0, 0.0));
  EXPECT_EQ(m.totals().channel_joules[0], last);
  m.add(0, tick_at(t + 500 * ms, 6.0, 0.0));
  EXPECT_NEAR(m.totals().channel_joules[0], last + 3.0, 1e-9);
  // After break_continuity the next sample starts a new segment.
  m.break_continuity();
  m.add(0, tick_at(t + 600 * ms, 6.0, 0.0));
  EXPECT_NEAR(m.totals().channel_joules[0], last + 3.0, 1e-9);
}

// The sampler feeds its meter from every tick, and keeps it across stop() and start().
class constant_rail final : public sensor {
 public:
  std::vector<channel_info> channels() const override { return {{"rail.VDD_IN", "W", channel_kind::power, ""}}; }
  std::optional<int> total_power_channel() const override { return 0; }
  void read(std::int64_t, double* out) override { out[0] = 4.0; }
};

TEST(energy_meter, sampler_ticks_feed_the_meter) {
  std::vector<std::unique_ptr<sensor>> sensors;
  sensors.push_back(std::make_unique<constant_rail>());
  sampler_config cfg;
  cfg.period_ns = 10 * ms;
  sampler s(std::move(sensors), cfg);
  for (int i = 0; i <= 100; ++i) s.tick(i * 10 * ms);  // 1 s at 4 W
  EXPECT_NEAR(s.energy().channel_joules[0], 4.0, 1e-9);
  s.set_job(3);
  for (int i = 101; i <= 150; ++i) s.tick(i * 10 * ms);  // job 3 from its first tick: 0.49 s
  auto e = s.energy();
  ASSERT_TRUE(e.running);
  EXPECT_EQ(e.running->job_id, 3);
  EXPECT_NEAR(e.running->joules, 4.0 * 0.49, 1e-9);
  EXPECT_NEAR(e.channel_joules[0], 4.0 * 1.5, 1e-9);
}

}  // namespace
}  // namespace jetperf::telemetry
