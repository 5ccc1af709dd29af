// The throttle state /metrics exports, from a board's clock state (GET /v1/clocks) and the
// sampler's readings: the GPU, each CPU core against its cluster's floor, EMC while locked.
#include <jetperf/api/clock_floors.hpp>

#include <gtest/gtest.h>

using namespace jetperf;
using nlohmann::json;

TEST(clock_floors, each_clock_against_its_floor_from_the_board_state_and_readings) {
  // An AGX Orin at MODE_30W as the simulated board reports it, the GPU pulled down to 306 MHz.
  const auto clocks = json::parse(R"({
      "gpu_cur_hz": 306000000, "gpu_min_hz": 624750000, "gpu_max_hz": 1300500000,
      "state": {"cpu": [{"cores": [0, 1, 2, 3], "min": 729600, "max": 1728000},
                        {"cores": [4, 5, 6, 7], "min": 1497600, "max": 1728000}],
                "emc": {"locked": true, "rate": 3199000000, "request": 3199000000}}})");
  const std::vector<telemetry::channel_info> channels = {
      {"clock.cpu0", "Hz", telemetry::channel_kind::clock, ""},
      {"clock.cpu5", "kHz", telemetry::channel_kind::clock, ""},
      {"clock.cpu9", "Hz", telemetry::channel_kind::clock, ""},  // offline core: no cluster
      {"clock.gpu", "Hz", telemetry::channel_kind::clock, ""},
  };
  const std::vector<std::optional<double>> values = {729.6e6, 1190400.0, 1e9, 306e6};
  const auto floors = api::clock_floors(clocks, channels, values);
  ASSERT_EQ(floors.size(), 4u);
  EXPECT_EQ(floors[0].domain, "gpu");
  EXPECT_TRUE(floors[0].throttled());
  EXPECT_EQ(floors[1].domain, "cpu0");
  EXPECT_DOUBLE_EQ(floors[1].floor_hz, 729.6e6);
  EXPECT_FALSE(floors[1].throttled());
  EXPECT_EQ(floors[2].domain, "cpu5");
  EXPECT_DOUBLE_EQ(floors[2].current_hz, 1190.4e6);  // kHz reading in hertz
  EXPECT_TRUE(floors[2].throttled());                 // below its cluster's 1497.6 MHz floor
  EXPECT_EQ(floors[3].domain, "emc");
  EXPECT_FALSE(floors[3].throttled());

  // EMC not locked: no floor to hold it to; no board state: nothing.
  auto unlocked = clocks;
  unlocked["state"]["emc"]["locked"] = false;
  EXPECT_EQ(api::clock_floors(unlocked, channels, values).size(), 3u);
  EXPECT_TRUE(api::clock_floors(json(), channels, values).empty());
}
