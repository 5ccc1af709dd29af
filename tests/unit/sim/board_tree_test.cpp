// Each profile's tree against README facts: identification, GPU devfreq discovery, CPU cores and
// clusters, INA3221 layout and rail names, thermal zones.
#include <gtest/gtest.h>

#include <filesystem>

#include <jetperf/platform/board_discovery.hpp>
#include <jetperf/platform/board_info.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/sim/board_tree.hpp>

#include "sim_test_util.hpp"

using namespace jetperf;
using namespace jetperf::sim;

namespace {

struct expected_board {
  const char* profile;
  const char* family;
  int l4t_major;
  const char* of_name;
  const char* devfreq_dir;
  int cores;
  size_t clusters;
  const char* rails;  // tegrastats order, space separated
  const char* driver;
};

const expected_board expected[] = {
    {"tx2", "t186", 32, "gp10b", "/sys/devices/17000000.gp10b/devfreq/17000000.gp10b", 6, 2,
     "VDD_SYS_GPU VDD_SYS_SOC VDD_4V0_WIFI VDD_IN VDD_SYS_CPU VDD_SYS_DDR", "ina3221x"},
    {"nano", "t210", 32, "gpu", "/sys/devices/gpu.0/devfreq/57000000.gpu", 4, 1, "POM_5V_IN POM_5V_GPU POM_5V_CPU",
     "ina3221x"},
    {"xavier-agx", "t194", 32, "gv11b", "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b", 8, 4,
     "GPU CPU SOC CV VDDRQ SYS5V", "ina3221x"},
    {"xavier-nx", "t194", 32, "gv11b", "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b", 6, 3,
     "VDD_IN VDD_CPU_GPU_CV VDD_SOC", "ina3221x"},
    {"orin-agx", "t234", 36, "gpu", "/sys/devices/platform/17000000.gpu/devfreq_dev", 12, 3,
     "VDD_GPU_SOC VDD_CPU_CV VIN_SYS_5V0 NC VDDQ_VDD2_1V8AO NC", "ina3221"},
    {"orin-nano", "t234", 36, "gpu", "/sys/devices/platform/17000000.gpu/devfreq_dev", 6, 6,
     "VDD_IN VDD_CPU_GPU_CV VDD_SOC", "ina3221"},
};

std::string rail_names(const platform::sysfs_root& root, bool hwmon) {
  std::string names;
  for (const auto& dev : root.list("/sys/bus/i2c/devices")) {
    const std::string base = "/sys/bus/i2c/devices/" + dev;
    auto name = root.try_read(base + "/name");
    if (!name || name->find("ina3221") == std::string::npos) continue;
    const std::string sub = hwmon ? base + "/hwmon" : base;
    for (const auto& node : root.list(sub)) {
      if (hwmon ? node.rfind("hwmon", 0) != 0 : node.rfind("iio:device", 0) != 0) continue;
      for (int k = 0; k < 3; ++k) {
        auto label = hwmon ? root.try_read(sub + "/" + node + "/in" + std::to_string(k + 1) + "_label")
                           : root.try_read(sub + "/" + node + "/rail_name_" + std::to_string(k));
        names += (names.empty() ? "" : " ") + label.value_or("?");
      }
    }
  }
  return names;
}

}  // namespace

class sim_board_tree : public ::testing::TestWithParam<expected_board> {};

TEST_P(sim_board_tree, matches_readme_facts) {
  const auto& e = GetParam();
  test::temp_dir tmp;
  auto board = sim_testing::make_board(e.profile, tmp);
  platform::sysfs_root root(board.paths().sysfs_root);

  auto info = platform::detect_board(root);
  EXPECT_TRUE(info.jetson);
  EXPECT_EQ(info.family, e.family);
  EXPECT_EQ(info.l4t_major, e.l4t_major);
  // compatible is NUL-separated, model NUL-terminated, as in the device tree.
  const std::string compat = root.read("/proc/device-tree/compatible");
  EXPECT_NE(compat.find('\0'), std::string::npos);

  auto d = platform::discover_board(root, info);
  ASSERT_TRUE(d.gpu.has_value());
  EXPECT_EQ(d.gpu->of_name, e.of_name);
  EXPECT_EQ(d.gpu->freq_dir, e.devfreq_dir);
  EXPECT_TRUE(root.exists(d.gpu->device_dir + "/load"));
  EXPECT_TRUE(root.exists(d.gpu->device_dir + "/railgate_enable"));
  EXPECT_EQ(static_cast<int>(d.cores.size()), e.cores);
  EXPECT_EQ(d.clusters.size(), e.clusters);
  EXPECT_FALSE(d.emc.kind.empty());
  EXPECT_FALSE(d.emc.cap.empty());
  EXPECT_FALSE(d.fan_pwm.empty());

  const bool hwmon = std::string(e.driver) == "ina3221";
  EXPECT_EQ(rail_names(root, hwmon), e.rails);
  EXPECT_EQ(root.read("/sys/bus/i2c/devices/" + board.profile().ina.front().bus_addr + "/name"), e.driver);
  if (hwmon) {
    const std::string dir = "/sys/bus/i2c/devices/" + board.profile().ina.front().bus_addr + "/hwmon";
    auto nodes = root.list(dir);
    ASSERT_FALSE(nodes.empty());
    EXPECT_EQ(root.read(dir + "/" + nodes.front() + "/in7_label"), "sum of shunt voltages");
    EXPECT_FALSE(root.exists(dir + "/" + nodes.front() + "/in_power0_input"));
  }

  // Thermal zones carry the board's names; offline Orin zones read -256000.
  const auto& zones = board.profile().zones;
  for (size_t i = 0; i < zones.size(); ++i) {
    const std::string z = "/sys/class/thermal/thermal_zone" + std::to_string(i);
    EXPECT_EQ(root.read(z + "/type"), zones[i].type);
    if (zones[i].offline) {
      EXPECT_EQ(root.read_int(z + "/temp"), -256000);
    }
  }
  // The default mode is applied at creation: its GPU cap is in the devfreq node.
  const auto* def = board.profile().find_mode(board.profile().default_mode);
  ASSERT_NE(def, nullptr);
  long long gpu_max = root.read_int(std::string(e.devfreq_dir) + "/max_freq");
  if (def->gpu_max_hz > 0) {
    EXPECT_LE(gpu_max, def->gpu_max_hz);
  }
  std::vector<bool> on(board.profile().core_count(), false);
  for (int c : def->online) on[c] = true;
  EXPECT_EQ(root.read("/sys/devices/system/cpu/online"), cpu_range_list(on));
  if (std::string(e.profile) == "tx2") {
    EXPECT_EQ(root.read("/sys/devices/system/cpu/online"), "0,3-5");
  }
}

INSTANTIATE_TEST_SUITE_P(profiles, sim_board_tree, ::testing::ValuesIn(expected),
                         [](const auto& info) {
                           std::string n = info.param.profile;
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(sim_board, create_is_idempotent_and_keeps_settings) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("nano", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  root.write("/sys/devices/gpu.0/devfreq/57000000.gpu/max_freq", "460800000");
  auto again = sim_testing::make_board("nano", tmp);
  EXPECT_EQ(root.read_int("/sys/devices/gpu.0/devfreq/57000000.gpu/max_freq"), 460800000);
  sim_create_options reset;
  reset.reset = true;
  reset.tools_dir = test::sim_tools_dir();
  auto fresh = sim_board::create("nano", tmp.path() + "/nano", reset);
  EXPECT_EQ(root.read_int("/sys/devices/gpu.0/devfreq/57000000.gpu/max_freq"), 998400000);
  EXPECT_TRUE(std::filesystem::exists(fresh.paths().nvpmodel_path));
  EXPECT_TRUE(std::filesystem::exists(fresh.paths().tegrastats_path));
}

TEST(sim_board, unknown_profile_is_not_found) {
  test::temp_dir tmp;
  EXPECT_THROW(sim_testing::make_board("tx3", tmp), not_found);
}
