// The physical bounds, each broken by a constructed figure and kept by a plausible one; the sensor
// card's cases are the figures issue 56 found reported as ok on the simulated boards.
#include <jetperf/measure/physical_bounds.hpp>

#include <gtest/gtest.h>

using namespace jetperf;
using namespace jetperf::measure;

namespace {

std::vector<std::string> names(const std::vector<bound_violation>& found) {
  std::vector<std::string> out;
  for (const auto& f : found) out.push_back(to_string(f.bound));
  return out;
}

using strings = std::vector<std::string>;

}  // namespace

TEST(physical_bounds, a_clock_above_the_modes_cap_or_outside_the_offered_steps_is_impossible) {
  clock_limits l;
  l.gpu_freqs_hz = {114750000, 624750000, 1300500000};
  l.gpu_cap_hz = 624750000;  // orin-agx MODE_30W
  l.cpu_freqs_khz = {115200, 1344000, 1728000};
  l.cpu_cap_khz = 1344000;  // orin-nano 25 W
  platform::board_setting ran;
  ran.gpu_freq_hz = 1300500000;
  ran.cpu_freq_khz = 1728000;
  auto found = check_clocks(ran, l);
  ASSERT_EQ(names(found), (strings{"clock_above_cap", "clock_above_cap"}));
  EXPECT_EQ(found[0].figure, "gpu_freq_hz");
  EXPECT_DOUBLE_EQ(found[0].limit, 624750000);
  EXPECT_EQ(found[1].figure, "cpu_freq_khz");
  // At the cap, or a read-back a rounding off a step: possible.
  ran.gpu_freq_hz = 624750000;
  ran.cpu_freq_khz = 1344000 + 1000;
  EXPECT_TRUE(check_clocks(ran, l).empty());
  // Above the highest step (no cap known) and below the lowest.
  l.gpu_cap_hz.reset();
  ran.gpu_freq_hz = 1600000000;
  ran.cpu_freq_khz = 100000;
  found = check_clocks(ran, l);
  ASSERT_EQ(names(found), (strings{"clock_outside_offered", "clock_outside_offered"}));
  EXPECT_DOUBLE_EQ(found[0].limit, 1300500000);
  EXPECT_DOUBLE_EQ(found[1].limit, 115200);
  // A clock the board offers no steps for is not checked.
  ran = {};
  ran.emc_freq_hz = 3199000000;
  EXPECT_TRUE(check_clocks(ran, l).empty());
}

TEST(physical_bounds, clock_limits_take_the_offered_steps_and_no_cap) {
  platform::board_offer offer;
  offer.gpu_freqs_hz = {1, 2};
  offer.emc_freqs_hz = {3};
  const auto l = clock_limits_of(offer);
  EXPECT_EQ(l.gpu_freqs_hz, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(l.emc_freqs_hz, (std::vector<std::int64_t>{3}));
  EXPECT_FALSE(l.gpu_cap_hz || l.cpu_cap_khz || l.emc_cap_hz);
}

TEST(physical_bounds, power_and_energy_below_zero_are_impossible_but_a_rails_zero_current_offset_is_not) {
  EXPECT_EQ(to_string(check_power("power_w", -0.01, false)->bound), std::string("power_negative"));
  EXPECT_FALSE(check_power("power_w", 0.0, false));
  // A power-gated rail reads its channel's offset, a few tens of mW either way.
  EXPECT_FALSE(check_power("rail_VDD_GPU_w", -0.05, true));
  const auto rail = check_power("rail_VDD_GPU_w", -0.4, true);
  ASSERT_TRUE(rail);
  EXPECT_DOUBLE_EQ(rail->limit, -k_rail_offset_w);
  EXPECT_EQ(rail->text(), "rail_VDD_GPU_w -0.4 W < -0.1 W");
  EXPECT_EQ(to_string(check_energy("energy_j", -1e-6)->bound), std::string("energy_negative"));
  EXPECT_FALSE(check_energy("energy_j", 0.0));
}

TEST(physical_bounds, no_rail_above_the_total_and_the_sub_rails_not_above_their_input) {
  // TX2: VDD_IN feeds the others.
  const std::optional<std::string> input = std::string("VDD_IN");
  EXPECT_TRUE(check_rails({{"VDD_IN", 10}, {"VDD_SYS_GPU", 4}, {"VDD_SYS_CPU", 3}}, 10, "power_w", input).empty());
  auto found = check_rails({{"VDD_IN", 10}, {"VDD_SYS_GPU", 12}, {"VDD_SYS_CPU", 1}}, 10, "power_w", input);
  ASSERT_EQ(names(found), (strings{"rail_above_total", "rails_above_input"}));
  EXPECT_EQ(found[0].figure, "VDD_SYS_GPU");
  EXPECT_DOUBLE_EQ(found[0].limit, 10 * 1.1 + 0.5);
  // Each below the input, together above it.
  EXPECT_EQ(names(check_rails({{"VDD_IN", 10}, {"A", 6}, {"B", 6}}, 10, "power_w", input)), (strings{"rails_above_input"}));
  // Within the allowance (each rail averages its own stretch of the window).
  EXPECT_TRUE(check_rails({{"VDD_IN", 10}, {"A", 6}, {"B", 5.4}}, 10, "power_w", input).empty());
  // AGX Orin: the total is the rails' sum; one rail can still not exceed it.
  EXPECT_TRUE(check_rails({{"VDD_GPU_SOC", 6}, {"VDD_CPU_CV", 3}}, 9, "power_w", std::nullopt).empty());
  EXPECT_EQ(names(check_rails({{"VDD_GPU_SOC", 16}}, 9, "power_w", std::nullopt)), (strings{"rail_above_total"}));
}

TEST(physical_bounds, the_layers_energies_must_add_up_to_the_run_they_split) {
  EXPECT_FALSE(check_layer_energy_sum(1.0, 1.0));
  EXPECT_FALSE(check_layer_energy_sum(0.8, 1.0));
  EXPECT_FALSE(check_layer_energy_sum(1.25, 1.0));
  const auto low = check_layer_energy_sum(0.79, 1.0);
  ASSERT_TRUE(low);
  EXPECT_EQ(to_string(low->bound), std::string("layer_energy_sum_off_run"));
  EXPECT_DOUBLE_EQ(low->limit, 0.8);
  const auto high = check_layer_energy_sum(1.3, 1.0);
  ASSERT_TRUE(high);
  EXPECT_DOUBLE_EQ(high->limit, 1.25);
  EXPECT_FALSE(check_layer_energy_sum(1.0, 0.0));  // no run to split
}

// TX2's chip at 0x41 (VDD_IN, VDD_SYS_CPU, VDD_SYS_DDR): the card reported VDD_SYS_CPU updating
// every 9.79 ms, half the chip's 19.58, with a delay of 11.5 ms.
TEST(physical_bounds, tx2_a_rail_updating_at_half_its_chips_period_is_impossible) {
  const std::string chip = "/sys/bus/i2c/devices/0-0041/iio:device1";
  const auto found = check_sensor_channels({{chip, 0.01958, 0.0196, 0.0002},
                                            {chip, 0.00979, 0.0098, 0.0115},
                                            {chip, 0.01958, 0.0195, 0.0003},
                                            {"/sys/bus/i2c/devices/0-0040/iio:device0", 0.01958, 0.0196, 0.0}});
  ASSERT_EQ(found.size(), 4u);
  EXPECT_TRUE(found[0].empty());
  EXPECT_EQ(names(found[1]), (strings{"sensor_period_off_chip"}));
  EXPECT_NEAR(found[1][0].limit, 19.58, 1e-9);  // the chip's, in ms
  EXPECT_TRUE(found[2].empty());
  EXPECT_TRUE(found[3].empty());  // the other chip's rail, alone there
  // Two channels of one chip that disagree: neither can be told right.
  const auto two = check_sensor_channels({{chip, 0.01958, {}, {}}, {chip, 0.00979, {}, {}}});
  EXPECT_EQ(names(two[0]), (strings{"sensor_period_off_chip"}));
  EXPECT_EQ(names(two[1]), (strings{"sensor_period_off_chip"}));
}

// AGX Orin's VIN_SYS_5V0: a delay of -17.2 ms (the reading seen before its window ended) and a
// window of 37.4 ms; AGX Xavier's SYS5V: a delay of -7.4 ms.
TEST(physical_bounds, orin_and_xavier_a_reading_seen_before_its_window_ended_is_impossible) {
  const auto orin = check_sensor_channels({{"/sys/bus/i2c/devices/1-0040/hwmon/hwmon3", 0.019584, 0.0374, -0.0172}});
  EXPECT_EQ(names(orin[0]), (strings{"sensor_delay_negative"}));
  EXPECT_EQ(orin[0][0].text(), "delay -17.2 ms < 0 ms");
  const auto xavier = check_sensor_channels({{"", 0.019584, 0.0196, -0.0074}});
  EXPECT_EQ(names(xavier[0]), (strings{"sensor_delay_negative"}));
  // A delay a fraction of a poll below zero is where the readings were placed, not a bound
  // broken: the simulator's sensor has none.
  EXPECT_TRUE(check_sensor_channels({{"", 0.019584, 0.0196, -0.0008}})[0].empty());
}

TEST(physical_bounds, a_reading_cannot_average_more_than_two_update_periods) {
  EXPECT_TRUE(check_sensor_channels({{"", 0.02, 0.040, 0.001}})[0].empty());
  const auto found = check_sensor_channels({{"", 0.02, 0.045, 0.001}});
  ASSERT_EQ(names(found[0]), (strings{"sensor_window_too_long"}));
  EXPECT_DOUBLE_EQ(found[0][0].limit, 40);
  // No period fitted: nothing to hold the window or the delay to.
  EXPECT_TRUE(check_sensor_channels({{"", 0, 0.2, -0.1}})[0].empty());
}

TEST(physical_bounds, a_channels_chip_is_the_folder_of_its_files) {
  EXPECT_EQ(sensor_chip_of("/sys/bus/i2c/devices/1-0040/hwmon/hwmon3/in1_input x "
                           "/sys/bus/i2c/devices/1-0040/hwmon/hwmon3/curr1_input"),
            "/sys/bus/i2c/devices/1-0040/hwmon/hwmon3");
  EXPECT_EQ(sensor_chip_of("/sys/bus/i2c/devices/0-0041/iio:device1/in_power0_input"),
            "/sys/bus/i2c/devices/0-0041/iio:device1");
  EXPECT_EQ(sensor_chip_of("sum of rails"), "");
  EXPECT_EQ(sensor_chip_of("tegrastats"), "");
  EXPECT_EQ(sensor_chip_of(""), "");
}
