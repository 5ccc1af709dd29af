#include <jetperf/stats/sensor_card.hpp>

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include <jetperf/stats/sensor_updates.hpp>

using namespace jetperf::stats;

namespace {

// A square-wave load: 1 W idle, 3 W busy, edges every `half_ns` from `first_ns`, `edges` of them.
struct square {
  std::int64_t first_ns;
  std::int64_t half_ns;
  int edges;

  double load_at(double t_ns) const {
    if (t_ns < static_cast<double>(first_ns)) return 1;
    const auto k = static_cast<std::int64_t>(std::floor((t_ns - static_cast<double>(first_ns)) / static_cast<double>(half_ns)));
    if (k >= edges) return edges % 2 ? 3 : 1;
    return k % 2 == 0 ? 3 : 1;
  }
  // The mean load over [a, b], by fine steps (exact enough at 1 us).
  double mean(double a_ns, double b_ns) const {
    double sum = 0;
    int n = 0;
    for (double t = a_ns + 500; t < b_ns; t += 1000, ++n) sum += load_at(t);
    return n ? sum / n : load_at(a_ns);
  }
  std::vector<load_edge> edge_list() const {
    std::vector<load_edge> out;
    for (int k = 0; k < edges; ++k) out.push_back({first_ns + k * half_ns, k % 2 == 0});
    return out;
  }
};

// A sensor updating every `period_ns` from `phase_ns`; each value the mean load over `window_ns`
// that ended `delay_ns` before the update, plus noise (`noise_w` standard deviation), rounded to
// 1 mW; polled every 1 ms with up to 0.2 ms lateness.
std::vector<std::pair<std::int64_t, double>> polled(const square& load, double period_ns, double phase_ns,
                                                    double window_ns, double delay_ns, std::int64_t until_ns,
                                                    double noise_w = 0.002) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::int64_t> late(0, 200'000);
  std::normal_distribution<double> noise(0, noise_w);
  std::vector<std::pair<std::int64_t, double>> out;
  double value = 1;
  std::int64_t seen = -1;
  for (std::int64_t t = 0; t < until_ns; t += 1'000'000) {
    const std::int64_t at = t + late(rng);
    const auto k = static_cast<std::int64_t>(std::floor((static_cast<double>(at) - phase_ns) / period_ns));
    if (k != seen) {
      seen = k;
      const double end = phase_ns + static_cast<double>(k) * period_ns - delay_ns;
      value = std::round((load.mean(end - window_ns, end) + noise(rng)) * 1000) / 1000;
    }
    out.emplace_back(at, value);
  }
  return out;
}

step_response card_of(const square& load, double period_ns, double window_ns, double delay_ns, double noise_w = 0.002) {
  const auto polls =
      polled(load, period_ns, 3.1e6, window_ns, delay_ns, load.first_ns + load.half_ns * (load.edges + 1), noise_w);
  const auto fit = fit_sensor_updates(polls, 0);
  EXPECT_NEAR(fit.period_s, period_ns * 1e-9, 1e-5);
  return fit_step_response(fit.readings, load.edge_list(), static_cast<double>(load.half_ns) * 1e-9);
}

}  // namespace

TEST(sensor_card, a_reading_averaging_its_whole_period_lags_half_of_it) {
  // The simulator's INA3221: 19.584 ms updates, each the mean of the period that just ended.
  const square load{200'000'000, 100'000'000, 40};
  const auto r = card_of(load, 19.584e6, 19.584e6, 0);
  ASSERT_TRUE(r.unusable.empty()) << r.unusable;
  EXPECT_GE(r.transitions, 20u);
  EXPECT_NEAR(r.window_s, 0.019584, 0.0005);
  EXPECT_NEAR(r.delay_s, 0, 0.0005);
  EXPECT_NEAR(r.lag_s, 0.009792, 0.0005);
}

TEST(sensor_card, a_shorter_window_seen_late_gives_its_own_window_and_delay) {
  // A 6 ms window seen 4 ms after it ended, updating every 10.3 ms: lag 7 ms.
  const square load{150'000'000, 80'000'000, 50};
  const auto r = card_of(load, 10.3e6, 6e6, 4e6);
  ASSERT_TRUE(r.unusable.empty()) << r.unusable;
  EXPECT_NEAR(r.window_s, 0.006, 0.0005);
  EXPECT_NEAR(r.delay_s, 0.004, 0.0005);
  EXPECT_NEAR(r.lag_s, 0.007, 0.0005);
}

TEST(sensor_card, a_step_a_few_times_its_noise_still_gives_the_window) {
  // Thor's VIN: one busy core is a step of a few times the reading's noise (2 W against 0.2 W
  // here). Readings at either level that noise lifts part-way must not stretch the window (a
  // line through the part-way readings alone made 19.6 ms into 21-24 ms).
  const square load{200'000'000, 100'000'000, 40};
  const auto r = card_of(load, 19.584e6, 19.584e6, 0, 0.2);
  ASSERT_TRUE(r.unusable.empty()) << r.unusable;
  EXPECT_NEAR(r.window_s, 0.019584, 0.0015);
  EXPECT_NEAR(r.lag_s, 0.009792, 0.001);
}

TEST(sensor_card, a_rail_the_load_barely_moves_is_unusable_not_a_negative_delay) {
  // A 5 V system rail that follows 3% of the CPU: a step of about twice its noise, which noise
  // alone can make look like any ramp (xavier-agx's SYS5V had a delay of -7.4 ms, orin's
  // VIN_SYS_5V0 -17.2 ms with a 37.4 ms window). Held to what a sensor can be, such a fit runs
  // into the bounds and says so.
  const square load{200'000'000, 100'000'000, 40};
  const auto polls = polled(load, 19.584e6, 3.1e6, 19.584e6, 0, load.first_ns + load.half_ns * (load.edges + 1), 0.5);
  const auto fit = fit_sensor_updates(polls, 0);
  const auto r = fit_step_response(fit.readings, load.edge_list(), 0.1, fit.period_s, 0.001);
  if (r.unusable.empty()) {
    EXPECT_GE(r.delay_s, -0.0006);
    EXPECT_LE(r.window_s, 2 * 0.019584);
  } else {
    EXPECT_NE(r.unusable.find("too small"), std::string::npos) << r.unusable;
  }
  // With the period known, a clear step is still fitted as before.
  const auto clear = polled(load, 19.584e6, 3.1e6, 19.584e6, 0, load.first_ns + load.half_ns * (load.edges + 1));
  const auto clear_fit = fit_sensor_updates(clear, 0);
  const auto c = fit_step_response(clear_fit.readings, load.edge_list(), 0.1, clear_fit.period_s, 0.001);
  ASSERT_TRUE(c.unusable.empty()) << c.unusable;
  EXPECT_NEAR(c.window_s, 0.019584, 0.0005);
  EXPECT_NEAR(c.delay_s, 0, 0.0005);
}

TEST(sensor_card, a_load_the_channel_does_not_see_fits_nothing) {
  std::vector<power_reading> flat;
  for (int k = 0; k < 500; ++k) flat.push_back({k * 20'000'000LL, 1.0 + (k % 3) * 0.001});
  const square load{1'000'000'000, 100'000'000, 40};
  const auto r = fit_step_response(flat, load.edge_list(), 0.1);
  EXPECT_EQ(r.transitions, 0u);
  EXPECT_FALSE(r.unusable.empty());
  EXPECT_EQ(r.lag_s, 0);
}

TEST(sensor_card, the_smallest_step_is_the_closest_pair_of_distinct_values) {
  EXPECT_NEAR(*smallest_step({1.000, 1.008, 1.004, 1.004, 1.012}), 0.004, 1e-12);
  // A float's rounding after a unit conversion is no step.
  EXPECT_NEAR(*smallest_step({0.1 + 0.2, 0.3, 0.305}), 0.005, 1e-12);
  EXPECT_FALSE(smallest_step({2.0, 2.0}).has_value());
  EXPECT_FALSE(smallest_step({}).has_value());
}

TEST(sensor_card, repeated_reads_between_updates_tell_a_cached_value_from_a_fresh_one) {
  // Updates every 20 ms from 0, polled every 1 ms (seen 0.1 ms late).
  std::vector<std::pair<std::int64_t, double>> cached, fresh;
  for (std::int64_t t = 100'000; t < 1'000'000'000; t += 1'000'000) {
    cached.emplace_back(t, static_cast<double>(t / 20'000'000));
    fresh.emplace_back(t, static_cast<double>(t));
  }
  EXPECT_NEAR(*repeat_read_fraction(cached, 0, 0.020, 0.0001), 1.0, 1e-12);
  EXPECT_NEAR(*repeat_read_fraction(fresh, 0, 0.020, 0.0001), 0.0, 1e-12);
  // Polled slower than it updates: no two polls share an update.
  std::vector<std::pair<std::int64_t, double>> slow;
  for (std::int64_t t = 100'000; t < 1'000'000'000; t += 30'000'000) slow.emplace_back(t, 1.0);
  EXPECT_FALSE(repeat_read_fraction(slow, 0, 0.020, 0.0001).has_value());
}

TEST(sensor_card, read_latency_is_the_median_and_the_99th_percentile) {
  std::vector<double> d;
  for (int i = 1; i <= 200; ++i) d.push_back(i * 1e-6);
  const auto r = summarize_read_latency(d);
  EXPECT_EQ(r.reads, 200u);
  EXPECT_NEAR(r.median_s, 100.5e-6, 1e-12);
  EXPECT_NEAR(r.p99_s, 198e-6, 1e-12);
  EXPECT_EQ(summarize_read_latency({}).reads, 0u);
}

TEST(sensor_card, a_torn_update_is_one_change_at_its_start_with_its_whole_value) {
  // Updates at 20 and 40 ms: the first read half-written at 20 ms (1.5) and whole at 21 ms (2).
  const std::vector<std::pair<std::int64_t, double>> polls{{19'000'000, 1},   {20'000'000, 1.5}, {21'000'000, 2},
                                                           {22'000'000, 2},   {40'000'000, 3},   {41'000'000, 3}};
  const auto whole = merge_torn_updates(polls, 6'000'000);
  const std::vector<std::pair<std::int64_t, double>> expected{{19'000'000, 1}, {20'000'000, 2}, {21'000'000, 2},
                                                              {22'000'000, 2}, {40'000'000, 3}, {41'000'000, 3}};
  EXPECT_EQ(whole, expected);
  // Updates further apart than the window stay apart.
  EXPECT_EQ(merge_torn_updates(polls, 500'000), polls);
}
