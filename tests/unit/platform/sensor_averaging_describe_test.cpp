#include <jetperf/platform/sensor_averaging.hpp>

#include <gtest/gtest.h>

using namespace jetperf::platform;

TEST(sensor_averaging, the_configuration_reads_chip_by_chip_with_the_interval_where_said) {
  const std::vector<sensor_chip_averaging> chips{{"/sys/a/hwmon/hwmon3", 16, 20}, {"/sys/b/hwmon/hwmon4", 4, std::nullopt}};
  EXPECT_EQ(describe_sensor_averaging(chips),
            "/sys/a/hwmon/hwmon3: samples=16 update_interval_ms=20; /sys/b/hwmon/hwmon4: samples=4");
  EXPECT_EQ(describe_sensor_averaging({}), "");
}
