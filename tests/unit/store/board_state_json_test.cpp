// A board snapshot's JSON form (store/board_state_json.hpp): the journal's file format, so its
// keys, nulls and the reading of older snapshots are pinned here.
#include <jetperf/store/board_state_json.hpp>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>

namespace jetperf::store {
namespace {

platform::board_state full_state() {
  platform::board_state s;
  s.power_mode = 2;
  s.gpu = platform::clock_range{114750000, 1300500000, "nvhost_podgov"};
  s.cpu.push_back({{0, 1, 2, 3}, {115200, 2201600, "schedutil"}});
  s.online_cores = std::vector<int>{0, 1, 2, 3};
  s.emc = platform::emc_setting{3199000000LL, 204000000, 3199000000LL, true, 2133000000};
  s.fan_pwm = 120;
  s.sensors.push_back({"/sys/bus/i2c/devices/1-0040/hwmon/hwmon3", 16, 20});
  return s;
}

TEST(board_state_json, writes_every_key_with_its_value) {
  const auto j = board_state_json(full_state());
  EXPECT_EQ(j["power_mode"], 2);
  EXPECT_EQ(j["gpu"], (nlohmann::json{{"min", 114750000}, {"max", 1300500000}, {"governor", "nvhost_podgov"}}));
  EXPECT_EQ(j["cpu"], nlohmann::json::parse(R"([{"cores":[0,1,2,3],"min":115200,"max":2201600,"governor":"schedutil"}])"));
  EXPECT_EQ(j["online_cores"], nlohmann::json::parse("[0,1,2,3]"));
  EXPECT_EQ(j["emc"], nlohmann::json::parse(
                          R"({"rate":3199000000,"min":204000000,"max":3199000000,"locked":true,"request":2133000000})"));
  EXPECT_EQ(j["fan_pwm"], 120);
  // The update interval is read from the board, never journaled.
  EXPECT_EQ(j["sensors"], nlohmann::json::parse(R"([{"dir":"/sys/bus/i2c/devices/1-0040/hwmon/hwmon3","samples":16}])"));
  EXPECT_EQ(j.size(), 7u);
}

TEST(board_state_json, absent_parts_are_null_and_lists_empty) {
  EXPECT_EQ(board_state_json({}).dump(),
            R"({"cpu":[],"emc":null,"fan_pwm":null,"gpu":null,"online_cores":null,"power_mode":null,"sensors":[]})");
}

TEST(board_state_json, reads_back_what_it_wrote) {
  const auto j = board_state_json(full_state());
  const auto back = board_state_from_json(j);
  EXPECT_EQ(board_state_json(back), j);
  EXPECT_EQ(back.emc->request, 2133000000);
  EXPECT_FALSE(back.sensors[0].update_interval_ms.has_value());
}

// Snapshots journaled before sensors and EMC min/max/request existed still restore.
TEST(board_state_json, reads_an_older_snapshot) {
  const auto back = board_state_from_json(nlohmann::json::parse(
      R"({"power_mode":null,"gpu":{"min":1,"max":2},"cpu":[],"online_cores":null,"emc":{"rate":5,"locked":false},"fan_pwm":null})"));
  EXPECT_FALSE(back.power_mode);
  EXPECT_EQ(back.gpu->governor, "");
  EXPECT_EQ(back.emc->request, 5);
  EXPECT_EQ(back.emc->min, 0);
  EXPECT_TRUE(back.sensors.empty());
}

TEST(board_state_json, a_malformed_snapshot_is_a_validation_error_on_state) {
  try {
    board_state_from_json({{"gpu", {{"min", "x"}}}});
    FAIL() << "expected validation_error";
  } catch (const validation_error& e) {
    EXPECT_EQ(e.field(), "state");
    EXPECT_EQ(std::string(e.what()).rfind("malformed board snapshot: ", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace jetperf::store
