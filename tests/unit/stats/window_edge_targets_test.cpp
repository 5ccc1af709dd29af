#include <jetperf/stats/window_edge_targets.hpp>

#include <cmath>

#include <gtest/gtest.h>

using namespace jetperf::stats;

TEST(window_edge_targets, the_delay_puts_an_update_at_the_chosen_point_of_the_run) {
  const double period = 19'584'000;
  const std::int64_t update = 1'000'000;  // updates at 1 ms + k * 19.584 ms
  for (std::int64_t now : {0LL, 5'000'000LL, 123'456'789LL, 7'000'000'000LL})
    for (double offset : {0.0, 3'000'000.0, 57'250'000.0, 110'000'000.0}) {
      const auto d = delay_for_update_at(now, offset, update, period);
      EXPECT_GE(d, 0);
      EXPECT_LT(static_cast<double>(d), period);
      // now + d + offset is an update.
      const double k = (static_cast<double>(now + d - update) + offset) / period;
      EXPECT_NEAR(k, std::round(k), 1e-6) << now << " " << offset;
    }
  // Already on an update: no wait.
  EXPECT_EQ(delay_for_update_at(update + 2 * 19'584'000 - 500'000, 500'000, update, period), 0);
}

TEST(window_edge_targets, only_units_short_of_the_target_are_aimed_at_over_their_span_in_the_run) {
  run_offsets offsets(4);
  // Two runs: layer 0 for 2 ms, 1 for 0.5 ms, 2 for 1 ms; layer 3 never ran.
  offsets.add_run({{0, 100, 2'000'100}, {1, 2'000'100, 2'500'100}, {2, 2'500'100, 3'500'100}});
  offsets.add_run({{0, 10'000'000, 12'200'000}, {1, 12'200'000, 12'700'000}, {2, 12'700'000, 13'700'000}});
  EXPECT_DOUBLE_EQ(offsets.start_ns(1), 2'100'000);
  EXPECT_DOUBLE_EQ(offsets.end_ns(2), 3'600'000);
  EXPECT_FALSE(offsets.seen(3));

  layer_power_result est;
  const auto unit = [](std::vector<int> layers, double rel) {
    layer_unit u;
    u.layers = std::move(layers);
    u.energy_j = 1;
    u.energy_ci95_j = rel;
    return u;
  };
  est.units = {unit({0}, 0.01), unit({1, 2}, 0.2), unit({3}, 0.5)};
  const auto targets = edge_targets(est, offsets, 0.05, 250'000);
  ASSERT_EQ(targets.size(), 1u);  // layer 0 is within the target; layer 3 never ran
  EXPECT_DOUBLE_EQ(targets[0].from_ns, 2'100'000 - 250'000);
  EXPECT_DOUBLE_EQ(targets[0].to_ns, 3'600'000 + 250'000);

  est.units[1].energy_ci95_j = INFINITY;  // no interval yet: nothing to aim at
  EXPECT_TRUE(edge_targets(est, offsets, 0.05, 250'000).empty());
}
