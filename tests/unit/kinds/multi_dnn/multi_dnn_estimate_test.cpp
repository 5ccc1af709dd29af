// How long a multi_dnn job takes: per mapping the idle baseline of a new setting, cool-down and
// the concurrent window, measured again as often as contended windows are.
#include <jetperf/kinds/multi_dnn/multi_dnn_estimate.hpp>

#include <gtest/gtest.h>

#include <algorithm>

#include "../spec_json.hpp"

using nlohmann::json;
using namespace jetperf::kinds;

namespace {

jetperf::platform::board_offer board() {
  jetperf::platform::board_offer o;
  o.power_modes = {{0, "MAXN", {}}};
  o.cpu_freqs_khz = {1200000, 2200000};
  return o;
}

multi_dnn_spec spec_of(const json& given) {
  return jetperf::test::stored_of<multi_dnn_spec>(jetperf::test::normalized_json<multi_dnn_spec>("multi_dnn", given, board()));
}

}  // namespace

TEST(multi_dnn_estimate, each_setting_measures_its_idle_baseline_and_each_mapping_its_window) {
  const auto s = spec_of({{"mappings", json::array({{{"alexnet", {{"21", "cpu"}}}}, {{"squeezenet1_0", {{"18", "cpu"}}}}})},
                          {"cpu_freqs", "min,max"}, {"min_time_s", 0.5}, {"max_time_s", 2.0}, {"cooldown_s", 0.25}});
  const auto points = expand(s);
  ASSERT_EQ(points.size(), 4u);  // 2 clocks x 2 mappings
  jetperf::measure::estimate_context ctx;
  auto t = estimate_multi_dnn_points_s(s, points, ctx);
  const double idle = 0.5 + 2 * s.boundary_s;
  // The adaptive window's guess (3 s) within its bounds: 2 s.
  EXPECT_DOUBLE_EQ(t[0], idle + 0.25 + 2.0);
  EXPECT_DOUBLE_EQ(t[1], 0.25 + 2.0);
  EXPECT_DOUBLE_EQ(t[2], idle + 0.25 + 2.0) << "the next clock's idle baseline";
  // A loaded host: every window contended and measured twice more.
  ctx.window_repeats = 3;
  t = estimate_multi_dnn_points_s(s, points, ctx);
  EXPECT_DOUBLE_EQ(t[1], 0.25 + 3 * 2.0);
  // The window spans at least ten sensor updates; a fixed window is its length.
  ctx.window_repeats = 1;
  ctx.sensor_update_s = 0.5;
  EXPECT_DOUBLE_EQ(estimate_multi_dnn_points_s(s, points, ctx)[1], 0.25 + 2 * s.boundary_s + 10 * 0.5);
  const auto fixed = spec_of({{"mappings", json::array({{{"alexnet", {{"21", "cpu"}}}}})}, {"protocol", "fixed"},
                              {"window_s", 6.0}});
  EXPECT_DOUBLE_EQ(estimate_multi_dnn_points_s(fixed, expand(fixed), {})[0],
                   std::max(0.5, fixed.min_time_s) + 2 * fixed.boundary_s + 6.0);
}
