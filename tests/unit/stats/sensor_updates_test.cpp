#include <jetperf/stats/sensor_updates.hpp>

#include <cmath>
#include <map>
#include <random>

#include <gtest/gtest.h>

using namespace jetperf::stats;

namespace {
// A sensor updating every `period_ns` from `phase_ns` with value k (so every update changes it),
// polled every `poll_ns` with a random lateness of 0..`jitter_ns` per poll.
std::vector<std::pair<std::int64_t, double>> polled(std::int64_t phase_ns, double period_ns, std::int64_t poll_ns,
                                                    std::int64_t jitter_ns, std::int64_t until_ns, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::int64_t> late(0, jitter_ns);
  std::vector<std::pair<std::int64_t, double>> out;
  for (std::int64_t t = 0; t < until_ns; t += poll_ns) {
    const std::int64_t at = t + late(rng);
    const double k = std::floor((static_cast<double>(at - phase_ns)) / period_ns);
    out.emplace_back(at, k);
  }
  return out;
}
}  // namespace

TEST(sensor_updates, readings_are_placed_at_the_update_not_at_the_poll) {
  // An INA3221 at 3 channels x 16 samples x (204 + 204) us = 19.584 ms (hwmon rounds its
  // update_interval to 20 ms) from phase 7.3 ms, polled at 1 kHz with up to 0.3 ms lateness, 10 s.
  const auto fit = fit_sensor_updates(polled(7'300'000, 19.584e6, 1'000'000, 300'000, 10'000'000'000, 1), 0.020);
  EXPECT_NEAR(fit.period_s, 0.019584, 2e-6);
  ASSERT_GE(fit.readings.size(), 505u);
  EXPECT_EQ(fit.extra_changes, 0u);
  // Each reading k's window ends at 7.3 ms + k * 20 ms; the fit is within a tenth of the poll period.
  for (const auto& r : fit.readings) {
    const double expected = 7.3e6 + r.watts * 19.584e6;
    EXPECT_NEAR(static_cast<double>(r.end_ns), expected, 100'000) << r.watts;
  }
  // Detected on average half a poll period after the update.
  EXPECT_NEAR(fit.lateness_median_s, 0.0005, 0.00015);
}

TEST(sensor_updates, a_sensor_clock_off_its_nominal_period_is_fitted) {
  // The configuration says 20 ms; the sensor's oscillator runs 3% slow.
  const auto fit = fit_sensor_updates(polled(2'000'000, 20.6e6, 1'000'000, 200'000, 20'000'000'000, 2), 0.020);
  EXPECT_NEAR(fit.period_s, 0.0206, 5e-6);
  const auto& last = fit.readings.back();
  EXPECT_NEAR(static_cast<double>(last.end_ns), 2e6 + last.watts * 20.6e6, 150'000);
}

TEST(sensor_updates, a_coarse_channel_whose_value_often_stays_is_still_fitted) {
  // A steady rail inside the chip's 8 mA steps: 45% of its updates read the value before them.
  // Each change it does show is at an update, and nothing else changes it: every change is
  // explained (an update that moved nothing leaves nothing to explain).
  auto s = polled(4'100'000, 19.584e6, 1'000'000, 200'000, 4'000'000'000, 4);
  std::mt19937 rng(5);
  std::bernoulli_distribution stays(0.45);
  std::map<double, double> level;  // update k -> the value it reads
  double v = 0;
  for (auto& p : s) {
    auto it = level.find(p.second);
    if (it == level.end()) it = level.emplace(p.second, v = stays(rng) ? v : v + 1).first;
    p.second = it->second;
  }
  const auto fit = fit_sensor_updates(s, 0.020);
  EXPECT_TRUE(fit.unusable.empty()) << fit.unusable;
  EXPECT_NEAR(fit.period_s, 0.019584, 5e-6);
  EXPECT_EQ(fit.extra_changes, 0u);
  EXPECT_GT(fit.readings.size(), 195u);
}

TEST(sensor_updates, a_nominal_period_half_the_sensors_gives_the_sensors) {
  // TX2's iio driver says nothing of its period; the sampler's 10 ms stands in for the chip's
  // 19.584 ms. A clock of half the chip's explains every change too, with an update between each
  // two where nothing changes: the fit must be the chip's clock, its readings one per update.
  const auto fit = fit_sensor_updates(polled(6'200'000, 19.584e6, 1'000'000, 200'000, 4'000'000'000, 6), 0.010);
  EXPECT_TRUE(fit.unusable.empty()) << fit.unusable;
  EXPECT_NEAR(fit.period_s, 0.019584, 5e-6);
  EXPECT_EQ(fit.extra_changes, 0u);
  ASSERT_GT(fit.readings.size(), 195u);
  for (std::size_t i = 1; i < fit.readings.size(); ++i)
    EXPECT_EQ(fit.readings[i].watts, fit.readings[i - 1].watts + 1) << "a reading for an update that never was";
}

TEST(sensor_updates, without_a_nominal_period_the_changes_give_it) {
  const auto fit = fit_sensor_updates(polled(500'000, 5e6, 250'000, 50'000, 2'000'000'000, 3), 0);
  EXPECT_NEAR(fit.period_s, 0.005, 2e-6);
}

TEST(sensor_updates, too_few_changes_give_no_readings) {
  const std::vector<std::pair<std::int64_t, double>> flat{{0, 1.0}, {1000, 1.0}, {2000, 2.0}, {3000, 2.0}};
  const auto fit = fit_sensor_updates(flat, 0.001);
  EXPECT_TRUE(fit.readings.empty());
  EXPECT_EQ(fit.changes, 1u);
}

TEST(sensor_updates, a_value_read_between_two_rail_writes_is_replaced_by_the_settled_one) {
  // Updates every 10 ms, polled 0.1 ms after each update and then every millisecond; every
  // fifth time the first poll reads a half-written total (k + 0.5), the next ones the settled k.
  std::vector<std::pair<std::int64_t, double>> s;
  for (int k = 0; k < 50; ++k) {
    const std::int64_t u = 3'000'000 + k * 10'000'000LL;
    s.emplace_back(u + 100'000, k % 5 == 0 ? k + 0.5 : k);
    for (int p = 1; p < 10; ++p) s.emplace_back(u + 100'000 + p * 1'000'000LL, k);
  }
  const auto fit = fit_sensor_updates(s, 0.010);
  // The first update precedes the first poll, and the last one's value has not settled until
  // the next is seen.
  ASSERT_GE(fit.readings.size(), 48u);
  EXPECT_EQ(fit.extra_changes, 9u);  // the settled values' changes after a half-written one
  for (std::size_t i = 0; i < fit.readings.size(); ++i) {
    const double k = fit.readings[i].watts;
    EXPECT_EQ(k, std::floor(k)) << "a half-written total was taken";
    EXPECT_EQ(k, fit.readings.front().watts + static_cast<double>(i));
    // Polls locked to the updates place them only within the poll spacing (1 ms).
    EXPECT_NEAR(static_cast<double>(fit.readings[i].end_ns), 3e6 + k * 1e7, 1e6);
  }
}

TEST(sensor_updates, a_refit_from_the_previous_fit_finds_the_same_clock) {
  const auto samples = polled(4'100'000, 19.584e6, 10'000'000, 500'000, 30'000'000'000, 4);
  const std::vector<std::pair<std::int64_t, double>> first(samples.begin(), samples.begin() + 1000);
  const auto early = fit_sensor_updates(first, 0.020);
  const auto full = fit_sensor_updates(samples, 0.020, &early);
  EXPECT_NEAR(full.period_s, 0.019584, 1e-7);
  // Polled every 10 ms, half a sensor period: each reading still lands within 0.2 ms of its update.
  for (const auto& r : full.readings) EXPECT_NEAR(static_cast<double>(r.end_ns), 4.1e6 + r.watts * 19.584e6, 200'000);
}

TEST(sensor_updates, a_sensor_read_no_faster_than_it_updates_is_refused_not_fitted) {
  // A 4.9 ms sensor read by a 10 ms poll: every poll sees a change, whatever the phase.
  const auto slow_poll = polled(1'000'000, 4.896e6, 10'000'000, 100'000, 5'000'000'000, 4);
  const auto fit = fit_sensor_updates(slow_poll, 0.005);
  EXPECT_TRUE(fit.readings.empty());
  EXPECT_NE(fit.unusable.find("updates every 5 ms but is read every 10 ms"), std::string::npos) << fit.unusable;
  EXPECT_TRUE(fit.poll_too_slow);
  // Without the configured period, the changes' spacing is the poll's: refused too.
  EXPECT_FALSE(fit_sensor_updates(slow_poll, 0).unusable.empty());
  // The daemon's default, a 19.584 ms sensor read every 10 ms, is placed.
  const auto usual = fit_sensor_updates(polled(1'000'000, 19.584e6, 10'000'000, 100'000, 20'000'000'000, 5), 0.020);
  EXPECT_TRUE(usual.unusable.empty()) << usual.unusable;
  EXPECT_FALSE(usual.poll_too_slow);
  EXPECT_NEAR(usual.period_s, 0.019584, 5e-6);
}

TEST(sensor_updates, the_phase_is_known_as_well_as_the_polls_pin_it_down) {
  // A poll drifting against the sensor pins its phase down update after update: 19.584 ms read
  // every 1 ms without jitter, for 10 s.
  const auto drifting = fit_sensor_updates(polled(7'300'000, 19.584e6, 1'000'000, 0, 10'000'000'000, 6), 0.020);
  EXPECT_LT(drifting.phase_uncertainty_s, 0.00005);
  // A 10 ms sensor read every 2 ms (each poll up to 0.1 ms late) meets the polls at the same
  // phases forever: the update is somewhere between two polls, and the fit says so.
  const auto locked = fit_sensor_updates(polled(3'300'000, 10e6, 2'000'000, 100'000, 10'000'000'000, 7), 0.010);
  EXPECT_NEAR(locked.phase_uncertainty_s, 0.00095, 0.0001);
  for (const auto& r : locked.readings)
    EXPECT_NEAR(static_cast<double>(r.end_ns), 3.3e6 + r.watts * 10e6, 1'000'000 + 1);
}

TEST(sensor_updates, changes_no_regular_clock_explains_are_refused) {
  // Values that change at random moments, about every 10 ms, read every millisecond.
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> gap(2e6, 18e6);
  std::vector<std::pair<std::int64_t, double>> s;
  double next = gap(rng), value = 0;
  for (std::int64_t t = 0; t < 5'000'000'000; t += 1'000'000) {
    while (static_cast<double>(t) >= next) next += gap(rng), value += 1;
    s.emplace_back(t, value);
  }
  const auto fit = fit_sensor_updates(s, 0.010);
  EXPECT_GT(fit.extra_changes * 2, fit.changes);
  EXPECT_NE(fit.unusable.find("no regular clock"), std::string::npos) << fit.unusable;
  EXPECT_FALSE(fit.poll_too_slow);
  EXPECT_TRUE(fit.readings.empty());
}
