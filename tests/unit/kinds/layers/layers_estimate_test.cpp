// How long a layers job takes on a loaded host: each window that other processes took the CPU
// from is measured again, and the estimate counts each time (the latency runs of the fixed
// protocol, the warm-up and the idle baseline once).
#include <jetperf/kinds/layers/layers_estimate.hpp>

#include <gtest/gtest.h>

#include <jetperf/kinds/common/point_estimate.hpp>

#include "../spec_json.hpp"

using nlohmann::json;
using namespace jetperf::kinds;

namespace {

jetperf::platform::board_offer offered() {
  jetperf::platform::board_offer o;
  o.power_modes = {{0, "MAXN", {}}};
  o.cpu_freqs_khz = {1200000, 2200000};
  o.memory_bytes = 8LL << 30;
  return o;
}

layers_spec spec_of(const json& given) {
  return jetperf::test::stored_of<layers_spec>(jetperf::test::normalized_json<layers_spec>("layers", given, offered()));
}

std::vector<double> estimate(const layers_spec& s, double repeats) {
  jetperf::measure::estimate_context ctx;
  ctx.run = [](const jetperf::measure::run_cost&) { return jetperf::measure::run_time{2e-3, 0.01}; };
  ctx.window_repeats = repeats;
  return estimate_layers_points_s(s, expand(s), ctx);
}

}  // namespace

TEST(layers_estimate, a_contended_window_measured_again_counts_each_time) {
  const auto adaptive = spec_of({{"models", {"alexnet"}}, {"device", "cpu"}, {"latency_samples", 20},
                                 {"min_time_s", 0.3}, {"max_time_s", 2.0}});
  const auto once = estimate(adaptive, 1), thrice = estimate(adaptive, 3);
  ASSERT_EQ(once.size(), thrice.size());
  ASSERT_GT(once.size(), 2u);
  // 20 runs of 2 ms within the 0.3 s floor: 0.3 s a window, twice more.
  const double window = jetperf::kinds::common::adaptive_window_s(0.3, 2.0, 20, {2e-3, 0.01}, adaptive.latency_target_rse);
  for (std::size_t i = 0; i < once.size(); ++i) EXPECT_NEAR(thrice[i] - once[i], 2 * window, 1e-9) << "point " << i;
  // The fixed protocol: its latency runs once, the window and its boundaries each time.
  const auto fixed = spec_of({{"models", {"alexnet"}}, {"device", "cpu"}, {"protocol", "fixed"}, {"window_s", 0.5},
                              {"boundary_s", 0.1}, {"gap_s", 0.2}, {"latency_samples", 20}});
  const auto f1 = estimate(fixed, 1), f3 = estimate(fixed, 3);
  for (std::size_t i = 0; i < f1.size(); ++i) EXPECT_NEAR(f3[i] - f1[i], 2 * (0.5 + 2 * 0.1), 1e-9) << "point " << i;
}
