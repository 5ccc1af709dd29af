// The layers protocol in_context end to end on a synthetic board (support/synthetic_layers_board):
// an averaging sensor polled every 2 ms that updates every 9.792 ms while its driver says 10 (as
// the simulated INA3221 updates every 19.584 ms, says 20, and is polled every 10 ms). On virtual
// time: seconds of runs take milliseconds, the same way every time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <support/synthetic_layers_board.hpp>

using namespace jetperf;
using measure::layer_resolution;

namespace {

constexpr double k_idle_w = 5.0;
constexpr double k_noise_w = 0.01;

// resnet18's blocks of 0.3 ms to 3.6 ms scaled to `run_s` a run, each with its own power above
// idle (0.4 to 2.2 W), on a 10 ms sensor polled every 2 ms.
test::synthetic_layers_board board(double run_s, test::sensor_clock clock = {}) {
  const auto n = models::layers_of(models::build_model("resnet18"), models::granularity::block).size();
  std::vector<double> seconds, watts;
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    seconds.push_back(i % 4 == 2 ? 0.3e-3 : 1.2e-3 * static_cast<double>(1 + i % 3));
    watts.push_back(0.4 + 0.3 * static_cast<double>((i * 5) % 7));
    sum += seconds.back();
  }
  for (double& s : seconds) s *= run_s / sum;
  return test::synthetic_layers_board("resnet18", seconds, watts, clock, 2'000'000, k_idle_w, k_noise_w);
}

// Every layer with a number of its own holds its true power within its interval (twice the 95%
// half-width, so one layer in a few thousand would fail by chance); returns how many did.
std::size_t check_against_truth(const measure::in_context_result& out, const test::synthetic_layers_board& b,
                                double target_rel = 0.1) {
  std::size_t own = 0;
  EXPECT_EQ(out.layers.size(), b.layers.size());
  for (std::size_t li = 0; li < out.layers.size(); ++li) {
    const auto& row = out.layers[li];
    SCOPED_TRACE(row.name);
    EXPECT_EQ(row.name, b.layers[li].name);
    EXPECT_GT(row.latency.count, 0u);
    // The layer's in-context latency is the median of what it ran.
    auto ran = b.ran_s.at(li);
    if (ran.empty()) {
      ADD_FAILURE() << "the layer never ran";
      continue;
    }
    std::sort(ran.begin(), ran.end());
    const double median = ran.size() % 2 ? ran[ran.size() / 2] : (ran[ran.size() / 2 - 1] + ran[ran.size() / 2]) / 2;
    EXPECT_NEAR(row.latency.median_s, median, 2e-6);
    EXPECT_EQ(row.latency.count, ran.size());
    if (row.resolution == layer_resolution::merged) {
      // No figure of its own: its group's, checked below.
      EXPECT_FALSE(row.merged_with.empty());
      EXPECT_EQ(row.power_w, 0.0);
      continue;
    }
    if (!row.has_figure()) {
      ADD_FAILURE() << "no power figure: " << to_string(row.resolution);
      continue;
    }
    const double ci = row.power_ci95_w;
    EXPECT_GT(ci, 0);
    EXPECT_NEAR(row.energy_j, row.power_w * row.latency.mean_s, 1e-12);
    ++own;
    EXPECT_NEAR(row.power_w, b.true_power(li), 2 * ci);
    // Resolved: within the target of its dynamic power (its power over idle).
    const double dynamic_w = std::max(row.power_w - k_idle_w, 0.01 * row.power_w);
    EXPECT_EQ(row.resolution == layer_resolution::resolved, ci / dynamic_w <= target_rel + 1e-12);
  }
  // Each merged layer is in exactly one group, whose figure holds its members' true power over
  // their time together.
  std::vector<int> groups_of(out.layers.size(), 0);
  for (const auto& g : out.groups) {
    SCOPED_TRACE(g.name);
    EXPECT_GE(g.members.size(), 2u);
    double seconds = 0, joules = 0;
    for (auto li : g.members) {
      ++groups_of.at(li);
      EXPECT_EQ(out.layers[li].resolution, layer_resolution::merged);
      seconds += out.layers[li].latency.mean_s;
      joules += b.true_power(li) * out.layers[li].latency.mean_s;
    }
    EXPECT_NEAR(g.latency_mean_s, seconds, 1e-12);
    EXPECT_NEAR(g.energy_j, g.power_w * g.latency_mean_s, 1e-12);
    EXPECT_GT(g.power_ci95_w, 0);
    EXPECT_NEAR(g.power_w, joules / seconds, 2 * g.power_ci95_w);
  }
  for (std::size_t li = 0; li < out.layers.size(); ++li)
    EXPECT_EQ(groups_of[li], out.layers[li].resolution == layer_resolution::merged ? 1 : 0) << out.layers[li].name;
  return own;
}

// Up to 6 s of runs for layers within 10% of their dynamic power.
measure::in_context_plan six_second_plan() {
  measure::in_context_plan plan;
  plan.min_time_s = 0.5;
  plan.max_time_s = 6;
  plan.target_rel = 0.1;
  return plan;
}

}  // namespace

TEST(in_context_protocol, recovers_each_layers_known_power_from_end_to_end_runs) {
  auto b = board(0.025);
  const auto out = b.run(false, k_idle_w, six_second_plan());

  ASSERT_TRUE(out.estimated) << out.estimator.unresolvable;
  const auto& e = out.estimator;
  EXPECT_EQ(e.unresolvable, "");
  const std::string stop = to_string(out.window.decision.reason);
  EXPECT_TRUE(stop == "converged" || stop == "projected_max_time") << stop;
  EXPECT_NEAR(e.sensor.period_s, b.clock.update_ns * 1e-9, b.clock.update_ns * 1e-9 * 0.002);
  EXPECT_GE(e.checks, 1u);
  EXPECT_LT(e.residual_rms_w, 3 * k_noise_w);
  // The 0.3 ms layers under a 2 ms window are merged where they cannot get within 30% of their
  // dynamic power (resolvable_rel): their groups are checked against the truth too.
  EXPECT_GE(check_against_truth(out, b), b.layers.size() - 6);

  // The layers add up to the runs' energy: the true energy of a run within the intervals.
  double truth_j = 0;
  for (std::size_t li = 0; li < b.layers.size(); ++li)
    truth_j += b.true_power(li) * out.layers[li].latency.mean_s;
  EXPECT_NEAR(out.sum_energy_j, truth_j, 3 * out.sum_energy_ci95_j + 0.002 * truth_j);
}

TEST(in_context_protocol, a_sensor_seen_late_is_placed_by_the_delay_the_runs_show) {
  // Each reading is seen 0.8 ms after its window ends (a driver that publishes late): placed where
  // its update was seen, every window sits 0.8 ms late, and the layer after a pause comes out low
  // in every run. The runs fit best with the readings moved back by the delay, which is applied.
  auto b = board(0.025);
  b.delay_ns = 800'000;
  const auto out = b.run(false, k_idle_w, six_second_plan());
  ASSERT_TRUE(out.estimated) << out.estimator.unresolvable;
  EXPECT_EQ(out.estimator.facts.delay_source, "fit");
  EXPECT_NEAR(out.estimator.facts.delay_s, 0.8e-3, 0.15e-3);
  EXPECT_EQ(out.estimator.facts.period_source, "fit");
  // Every figure (a layer's own or a group's) holds the truth.
  EXPECT_GE(check_against_truth(out, b, six_second_plan().target_rel), 4u);
}

TEST(in_context_protocol, runs_locked_in_phase_with_the_sensor_are_paused_at_random_and_still_resolve) {
  // Each run lasts just under one sensor update and, back to back, starts on the next update: the
  // windows' edges fall at the same places in every run until the protocol pauses between runs.
  auto b = board(0.0096);
  measure::in_context_plan plan;
  plan.pause_windows = 0;  // back to back, as a workload paced by the sensor would run
  plan.min_time_s = 0.3;
  plan.check_period_s = 0.25;
  plan.max_time_s = 6;
  plan.target_rel = 0.1;
  const auto out = b.run(true, k_idle_w, plan);

  ASSERT_TRUE(out.estimated) << out.estimator.unresolvable;
  EXPECT_TRUE(out.estimator.jitter);
  EXPECT_EQ(measure::in_context_flags(out), std::vector<std::string>{"paused_between_runs"});
  // Runs that stayed locked would merge every layer into the whole network (the estimator's own
  // tests): after the pauses, layers get numbers of their own, each holding its true power.
  EXPECT_GE(check_against_truth(out, b, plan.target_rel), 4u);
}

TEST(in_context_protocol, runs_pause_between_them_and_the_end_to_end_power_is_the_runs_own) {
  // The board draws 0.5 W above its idle baseline while the runs pause (cores not yet in their
  // deeper idle states): the estimator measures that, and the end-to-end row leaves it out.
  auto b = board(0.025);
  b.log.rest_w = 0.5;
  measure::in_context_plan plan;
  plan.min_time_s = 0.5;
  plan.max_time_s = 6;
  plan.target_rel = 0.1;
  ASSERT_EQ(plan.pause_windows, 1.5);  // the default
  const auto out = b.run(false, k_idle_w, plan);
  ASSERT_TRUE(out.estimated) << out.estimator.unresolvable;
  const auto& between = out.estimator.between_runs;

  // A pause before every run but the first, each one and a half of the sensor's 9.792 ms.
  const auto runs = out.estimator.runs;
  EXPECT_EQ(between.pauses, runs - 1);
  EXPECT_GE(between.paused_s, 0.99 * 1.5 * 0.009792 * static_cast<double>(runs - 1));
  EXPECT_EQ(measure::in_context_flags(out), std::vector<std::string>{"paused_between_runs"});
  // What the board drew there, measured with its interval.
  EXPECT_NEAR(between.power_w, k_idle_w + 0.5, 2 * between.power_ci95_w + 0.005);
  EXPECT_GT(between.readings, 20u);
  // The 0.3 ms layers under a 2 ms window are merged where they cannot get within 30% of their
  // dynamic power (resolvable_rel): their groups are checked against the truth too.
  EXPECT_GE(check_against_truth(out, b), b.layers.size() - 6);
  // A layer shorter than 0.15 of the window says its figure rests on the edges inside it.
  std::size_t edge_limited = 0;
  for (const auto& row : out.layers) {
    if (!row.has_figure()) continue;
    EXPECT_EQ(row.edge_limited, row.latency.mean_s < 0.15 * 0.009792) << row.name;
    edge_limited += row.edge_limited;
  }
  EXPECT_GT(edge_limited, 0u);
  // The unknowns: every op of resnet18's blocks that is long enough a column of its own, and the
  // time between runs; more than the units reported.
  EXPECT_GT(out.estimator.columns, out.estimator.units);

  // The end-to-end power is the runs' own: each layer's true power over the time it really ran,
  // not the window's mean, which holds the pauses (a third of the time here).
  double joules = 0, seconds = 0;
  for (std::size_t li = 0; li < b.layers.size(); ++li)
    for (double s : b.ran_s[li]) joules += b.true_power(li) * s, seconds += s;
  const double runs_w = joules / seconds;
  ASSERT_TRUE(out.window.power && out.window.power->total_power_w);
  EXPECT_NEAR(*out.window.power->total_power_w, runs_w, 0.002 * runs_w);
  ASSERT_TRUE(between.window_power_w);
  EXPECT_GT(std::fabs(*between.window_power_w - runs_w), 0.1);
}

TEST(in_context_protocol, the_runs_power_takes_the_pauses_out_of_the_windows_mean) {
  // 10 s at 7 W holding 2 s of pauses at 5 W: the 8 s of runs drew 7.5 W.
  EXPECT_DOUBLE_EQ(measure::power_over_runs(7.0, 10.0, 2.0, 5.0), 7.5);
  // Nothing paused, or the pauses' power unknown: the window's mean as it is.
  EXPECT_DOUBLE_EQ(measure::power_over_runs(7.0, 10.0, 0.0, 5.0), 7.0);
  EXPECT_DOUBLE_EQ(measure::power_over_runs(7.0, 10.0, 2.0, std::nan("")), 7.0);
  EXPECT_DOUBLE_EQ(measure::power_over_runs(7.0, 1.0, 2.0, 5.0), 7.0);
}

TEST(in_context_protocol, without_an_idle_baseline_no_layer_gets_a_number) {
  auto b = board(0.010);
  measure::in_context_plan plan;
  plan.min_time_s = 0.2;
  const auto out = b.run(false, std::nullopt, plan);

  EXPECT_FALSE(out.estimated);
  EXPECT_EQ(out.estimator.unresolvable, "no idle baseline to subtract");
  EXPECT_EQ(out.window.decision.reason, measure::stop_reason::no_power);
  ASSERT_EQ(out.layers.size(), b.layers.size());
  for (const auto& row : out.layers) {
    EXPECT_EQ(row.resolution, layer_resolution::unresolvable) << row.name;
    EXPECT_FALSE(row.has_figure()) << row.name;
    EXPECT_GT(row.latency.count, 0u);
  }
}

TEST(in_context_protocol, a_sensor_that_updates_faster_than_it_is_read_gives_no_layer_a_number) {
  // 1.5 ms averages read every 2 ms: which window a poll's value ended is anyone's guess.
  auto b = board(0.010, test::sensor_clock{1'500'000, 1'500'000, 300'000});
  measure::in_context_plan plan;
  plan.min_time_s = 0.2;
  plan.max_time_s = 10;
  const auto out = b.run(false, k_idle_w, plan);

  EXPECT_FALSE(out.estimated);
  EXPECT_NE(out.estimator.unresolvable.find("cannot be placed"), std::string::npos) << out.estimator.unresolvable;
  EXPECT_EQ(out.window.decision.reason, measure::stop_reason::no_power);
  // Stopped at its first check (the final solve is the second), not at max_time_s.
  EXPECT_EQ(out.estimator.checks, 2u);
  for (const auto& row : out.layers) EXPECT_EQ(row.resolution, layer_resolution::unresolvable) << row.name;
}

TEST(in_context_protocol, runs_are_aimed_at_layers_short_of_their_target_only_when_asked) {
  // A target no layer reaches: after the first check every other run is delayed so that an
  // update falls inside one of them; with aim_updates off, none is.
  measure::in_context_plan plan;
  plan.min_time_s = 0.3;
  plan.check_period_s = 0.25;
  // The target makes every layer hopeless once there are 5 readings per unit (about 0.7 s of
  // runs), which ends the runs; max_time_s only bounds it.
  plan.max_time_s = 10;
  plan.target_rel = 0.0001;
  plan.aim_updates = true;
  auto aimed = board(0.020);
  const auto a = aimed.run(false, k_idle_w, plan);
  ASSERT_TRUE(a.estimated) << a.estimator.unresolvable;
  EXPECT_GT(a.estimator.targeted_runs, 0u);
  EXPECT_LE(a.estimator.targeted_runs, a.estimator.runs / 2 + 1);

  plan.aim_updates = false;
  auto plain = board(0.020);
  const auto p = plain.run(false, k_idle_w, plan);
  EXPECT_EQ(p.estimator.targeted_runs, 0u);
}

TEST(in_context_protocol, a_sensor_that_loses_its_clock_stops_the_runs_and_keeps_what_was_placed) {
  // A 4.896 ms sensor polled every millisecond; 1.3 s into the runs its value starts changing at
  // every poll (a driver gone wrong): no clock explains the changes any more. The fit of the
  // first 1.3 s stays: the layers keep the numbers those readings give, rather than all being
  // merged into one unit for want of readings.
  auto b = board(0.02, test::sensor_clock{5'000'000, 4'896'000, 1'100'000});
  b.sensor.period_ns = 1'000'000;
  const auto glitch_at = b.time->now_ns() + 1'300'000'000;
  const auto steady = b.sensor.power;
  b.sensor.power = [&, steady](std::int64_t t) {
    // Each poll a microwatt off the last: the values stay right, their changes follow no clock.
    return t < glitch_at ? steady(t) : steady(t) + 1e-6 * static_cast<double>((t / 1'000'000) % 2);
  };
  measure::in_context_plan plan;
  plan.min_time_s = 0.3;
  plan.check_period_s = 0.25;
  plan.max_time_s = 3600;      // never hopeless: only the lost clock stops these runs
  plan.target_rel = 0.001;     // out of reach, and hopeless for none within the hour
  const auto out = b.run(false, k_idle_w, plan);

  EXPECT_EQ(out.window.decision.reason, measure::stop_reason::sensor_clock_lost) << out.estimator.unresolvable;
  const auto flags = measure::in_context_flags(out);
  EXPECT_NE(std::find(flags.begin(), flags.end(), "sensor_clock_lost"), flags.end());
  const auto& e = out.estimator;
  EXPECT_GE(e.failed_refits, 1u);
  // Stopped for the lost clock, not at the hour: within a few checks of the glitch.
  EXPECT_LT(out.window.t_end_ns, glitch_at + 20'000'000'000LL) << "ran on after the clock was lost";
  ASSERT_TRUE(out.estimated) << e.unresolvable;
  EXPECT_EQ(e.unresolvable, "");
  EXPECT_GT(e.units, 4u);
  EXPECT_NEAR(e.sensor.period_s, 4.896e-3, 4.896e-3 * 0.002);
  EXPECT_GE(check_against_truth(out, b, plan.target_rel), 4u);
}

// A sensor whose changes follow no clock for the first window (a loaded host's late, uneven
// polls look like this): the window is measured again, twice as long, and the layers get their
// numbers from the second. One that never settles leaves them unresolvable after the retry.
TEST(in_context_protocol, an_unfitted_sensor_clock_is_measured_again_with_a_longer_window) {
  const auto glitchy_until = [](test::synthetic_layers_board& b, std::int64_t until_ns) {
    b.sensor.period_ns = 1'000'000;
    const auto steady = b.sensor.power;
    b.sensor.power = [steady, until_ns](std::int64_t t) {
      return t >= until_ns ? steady(t) : steady(t) + 1e-6 * static_cast<double>((t / 1'000'000) % 2);
    };
  };
  measure::in_context_plan plan;
  plan.min_time_s = 0.3;
  plan.max_time_s = 1.0;
  plan.check_period_s = 0.25;
  plan.target_rel = 0.05;

  auto settles = board(0.02, test::sensor_clock{5'000'000, 4'896'000, 1'100'000});
  glitchy_until(settles, settles.time->now_ns() + 1'200'000'000);
  const auto t0 = settles.time->now_ns();
  const auto out = settles.run(false, k_idle_w, plan);
  EXPECT_EQ(out.estimator.sensor_retries, 1u);
  EXPECT_FALSE(out.estimator.sensor_unfitted) << out.estimator.unresolvable;
  ASSERT_TRUE(out.estimated) << out.estimator.unresolvable;
  // The window kept is the second: it starts after the first one's second.
  EXPECT_GT(out.window.t_start_ns, t0 + 1'000'000'000);
  EXPECT_NEAR(out.estimator.sensor.period_s, 4.896e-3, 4.896e-3 * 0.002);
  // Each layer with a number of its own holds its true power (the runs of both windows are in
  // the board's log, so the latency checks of check_against_truth do not apply).
  std::size_t own = 0;
  for (std::size_t li = 0; li < out.layers.size(); ++li) {
    const auto& row = out.layers[li];
    if (row.resolution != layer_resolution::resolved && row.resolution != layer_resolution::not_converged) continue;
    ++own;
    EXPECT_NEAR(row.power_w, settles.true_power(li), 2 * row.power_ci95_w) << row.name;
  }
  EXPECT_GE(own, 4u);

  auto never = board(0.02, test::sensor_clock{5'000'000, 4'896'000, 1'100'000});
  glitchy_until(never, std::numeric_limits<std::int64_t>::max());
  const auto lost = never.run(false, k_idle_w, plan);
  EXPECT_EQ(lost.estimator.sensor_retries, 1u);
  EXPECT_TRUE(lost.estimator.sensor_unfitted);
  EXPECT_FALSE(lost.estimated);
  EXPECT_NE(lost.estimator.unresolvable.find("no regular clock"), std::string::npos) << lost.estimator.unresolvable;
  for (const auto& row : lost.layers) EXPECT_EQ(row.resolution, layer_resolution::unresolvable) << row.name;
}
