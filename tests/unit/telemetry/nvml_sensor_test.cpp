#include <jetperf/telemetry/nvml_sensor.hpp>

#include <dlfcn.h>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>

namespace jetperf::telemetry {
namespace {

int find(const std::vector<channel_info>& ch, const std::string& name) {
  for (std::size_t i = 0; i < ch.size(); ++i)
    if (ch[i].name == name) return static_cast<int>(i);
  return -1;
}

TEST(nvml_sensor, values_from_fake_library) {
  nvml_sensor s(JETPERF_FAKE_NVML);
  ASSERT_EQ(s.devices().size(), 1u);
  EXPECT_EQ(s.devices()[0].name, "Fake GPU");
  EXPECT_TRUE(s.devices()[0].power);
  EXPECT_FALSE(s.devices()[0].temperature);  // NotSupported: no channel
  auto ch = s.channels();
  EXPECT_EQ(find(ch, "temp.nvml.gpu0"), -1);
  int power = find(ch, "nvml.gpu0.power");
  int energy = find(ch, "nvml.gpu0.energy");
  int sm = find(ch, "clock.nvml.gpu0.sm");
  int app = find(ch, "clock.nvml.gpu0.app_sm");
  int util = find(ch, "util.nvml.gpu0");
  int mem = find(ch, "util.nvml.gpu0.mem");
  ASSERT_GE(power, 0);
  ASSERT_GE(energy, 0);
  ASSERT_GE(sm, 0);
  ASSERT_GE(app, 0);
  ASSERT_GE(util, 0);
  ASSERT_GE(mem, 0);
  EXPECT_EQ(ch[static_cast<std::size_t>(power)].unit, "W");
  EXPECT_EQ(s.total_power_channel(), power);
  std::vector<double> v(ch.size());
  s.read(0, v.data());
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(power)], 12.345);
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(energy)], 5000.0);
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(sm)], 1410e6);
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(app)], 1300e6);
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(util)], 42);
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(mem)], 17);
  // The reading follows the library: change the fake's power.
  void* lib = ::dlopen(JETPERF_FAKE_NVML, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(lib, nullptr);
  auto set_power = reinterpret_cast<void (*)(unsigned int)>(::dlsym(lib, "fake_nvml_set_power_mw"));
  ASSERT_NE(set_power, nullptr);
  set_power(30000);
  s.read(1, v.data());
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(power)], 30.0);
  set_power(12345);
  ::dlclose(lib);
}

TEST(nvml_sensor, missing_symbols_drop_channels) {
  nvml_sensor s(JETPERF_FAKE_NVML_MINIMAL);
  auto ch = s.channels();
  EXPECT_EQ(find(ch, "nvml.gpu0.power"), -1);
  EXPECT_EQ(find(ch, "nvml.gpu0.energy"), -1);
  EXPECT_EQ(find(ch, "clock.nvml.gpu0.app_sm"), -1);
  EXPECT_GE(find(ch, "clock.nvml.gpu0.sm"), 0);
  EXPECT_FALSE(s.total_power_channel());
  EXPECT_FALSE(s.devices()[0].power);
}

TEST(nvml_sensor, missing_library_is_unavailable) {
  EXPECT_THROW(nvml_sensor("/nonexistent/libnvidia-ml.so.1"), unavailable);
}

}  // namespace
}  // namespace jetperf::telemetry
