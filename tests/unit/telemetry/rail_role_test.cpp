#include <filesystem>

#include <gtest/gtest.h>

#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/power_rails.hpp>
#include <jetperf/telemetry/rail_role.hpp>
#include <jetperf/telemetry/rail_sensor.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::telemetry {
namespace {

TEST(rail_role, every_family_s_rail_names) {
  // Inputs: Nano, TX2/NX/Orin NX, Thor's carrier.
  EXPECT_EQ(rail_role("POM_5V_IN"), "total");
  EXPECT_EQ(rail_role("VDD_IN"), "total");
  EXPECT_EQ(rail_role("VIN"), "total");
  // The 5 V system rail of Orin and Thor is not the input.
  EXPECT_EQ(rail_role("VIN_SYS_5V0"), "io");
  EXPECT_EQ(rail_role("SYS5V"), "io");
  EXPECT_EQ(rail_role("VDD_4V0_WIFI"), "io");
  EXPECT_EQ(rail_role("VDD_SYS_GPU"), "gpu");
  EXPECT_EQ(rail_role("VDD_GPU_SOC"), "gpu");
  EXPECT_EQ(rail_role("VDD_GPU"), "gpu");
  EXPECT_EQ(rail_role("GPU"), "gpu");
  EXPECT_EQ(rail_role("VDD_CPU_CV"), "cpu");
  EXPECT_EQ(rail_role("VDD_CPU_GPU_CV"), "cpu");
  EXPECT_EQ(rail_role("VDD_CPU_SOC_MSS"), "cpu");
  EXPECT_EQ(rail_role("VDD_SYS_SOC"), "soc");
  EXPECT_EQ(rail_role("CV"), "cv");
  EXPECT_EQ(rail_role("VDDRQ"), "ddr");
  EXPECT_EQ(rail_role("VDDQ_VDD2_1V8AO"), "ddr");
  EXPECT_EQ(rail_role("VDD_SYS_DDR"), "ddr");
  EXPECT_EQ(rail_role("something"), "other");
}

TEST(power_rails, ina238_vin_is_read_in_microwatts_and_is_the_total) {
  test::temp_dir t;
  const std::string dev = t.file("sys/devices/platform/i2c-7/7-0044");
  test::write_file(dev + "/name", "ina238\n");
  test::write_file(dev + "/hwmon/hwmon3/in1_input", "19968\n");
  test::write_file(dev + "/hwmon/hwmon3/curr1_input", "4378\n");
  test::write_file(dev + "/hwmon/hwmon3/power1_input", "87426000\n");
  std::filesystem::create_directories(t.file("sys/bus/i2c/devices"));
  std::filesystem::create_directory_symlink(dev, t.file("sys/bus/i2c/devices/7-0044"));
  const platform::sysfs_root root(t.path());
  const auto rails = discover_rails(root);
  ASSERT_EQ(rails.size(), 1u);
  EXPECT_EQ(rails[0].name, "VIN");
  EXPECT_EQ(rails[0].role, "total");
  EXPECT_EQ(rails[0].driver, rail_driver::hwmon_power);
  ASSERT_TRUE(input_rail_index(rails));
  rail_sensor s(root, rails);
  ASSERT_EQ(s.channels().size(), 1u);  // the input is the total: no computed sum
  double w = 0;
  s.read(0, &w);
  EXPECT_DOUBLE_EQ(w, 87.426);
  ASSERT_TRUE(s.total_power_channel());
  EXPECT_EQ(*s.total_power_channel(), 0);
}

}  // namespace
}  // namespace jetperf::telemetry
