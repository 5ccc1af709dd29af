// The power mode's caps as the simulated boards hold them (docs/simulator.md): on r35+ profiles a
// CPU or GPU max limit written above the cap of the mode in effect reads back as the highest step
// under it at the next update, and the clock runs there; an r32 profile keeps what was written, as
// its 4.9 kernel does.
#include <gtest/gtest.h>

#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/sim/mode_cap_hold.hpp>

#include "sim_test_util.hpp"

using namespace jetperf;
using namespace jetperf::sim;

namespace {

rail_simulator_options quiet() {
  rail_simulator_options o;
  o.noise = 0;
  o.host_load = [] { return std::vector<double>{0.0}; };
  return o;
}

const std::string cpu0 = "/sys/devices/system/cpu/cpu0/cpufreq";

}  // namespace

// sim:orin-nano boots into 25W (CPU cap 1344 MHz): a lock at 1728 MHz ran at 1728 MHz before.
TEST(mode_cap_hold, orin_nano_25w_holds_the_cpu_under_its_cap) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-nano", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  rail_simulator sim(board.profile(), board.paths().sysfs_root, quiet());
  root.write(cpu0 + "/scaling_max_freq", "1728000");
  root.write(cpu0 + "/scaling_min_freq", "1728000");
  sim.step(0.02);
  EXPECT_EQ(root.read_int(cpu0 + "/scaling_max_freq"), 1344000);
  EXPECT_EQ(root.read_int(cpu0 + "/scaling_min_freq"), 1344000);
  EXPECT_EQ(root.read_int(cpu0 + "/scaling_cur_freq"), 1344000);
  // Under the cap a lock stays where it was written.
  root.write(cpu0 + "/scaling_min_freq", "729600");
  root.write(cpu0 + "/scaling_max_freq", "729600");
  sim.step(0.02);
  EXPECT_EQ(root.read_int(cpu0 + "/scaling_cur_freq"), 729600);
}

// sim:orin-agx boots into MODE_30W (GPU cap 624.75 MHz): `clocks lock --gpu max` locked 1300.5 MHz.
TEST(mode_cap_hold, orin_agx_30w_holds_the_gpu_under_its_cap) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  const std::string df = board.profile().gpu_devfreq_dir;
  rail_simulator sim(board.profile(), board.paths().sysfs_root, quiet());
  root.write(df + "/max_freq", "1300500000");
  root.write(df + "/min_freq", "1300500000");
  sim.step(0.02);
  EXPECT_EQ(root.read_int(df + "/max_freq"), 624750000);
  EXPECT_EQ(root.read_int(df + "/min_freq"), 624750000);
  EXPECT_EQ(root.read_int(df + "/cur_freq"), 624750000);
  EXPECT_EQ(hold_mode_caps(board.profile(), board.paths().sysfs_root), 0) << "held already";
}

TEST(mode_cap_hold, an_r32_board_keeps_a_write_above_the_mode_cap) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("xavier-nx", tmp);  // MODE_10W_DESKTOP: GPU cap 510 MHz
  EXPECT_FALSE(holds_mode_caps(board.profile()));
  platform::sysfs_root root(board.paths().sysfs_root);
  const std::string df = board.profile().gpu_devfreq_dir;
  root.write(df + "/max_freq", "1109250000");
  EXPECT_EQ(hold_mode_caps(board.profile(), board.paths().sysfs_root), 0);
  EXPECT_EQ(root.read_int(df + "/max_freq"), 1109250000);
}
