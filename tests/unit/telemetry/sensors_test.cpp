#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/clock_sensor.hpp>
#include <jetperf/telemetry/cpu_util_sensor.hpp>
#include <jetperf/telemetry/engine_sensor.hpp>
#include <jetperf/telemetry/power_rails.hpp>
#include <jetperf/telemetry/rail_sensor.hpp>
#include <jetperf/telemetry/rapl_sensor.hpp>
#include <jetperf/telemetry/thermal_sensor.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::telemetry {
namespace {

namespace fs = std::filesystem;
using test::write_file;

void link(const std::string& target, const std::string& at) {
  fs::create_directories(fs::path(at).parent_path());
  fs::create_directory_symlink(target, at);
}

// AGX Orin r35/r36: two mainline ina3221 chips, NC channels and the in7 sum channel.
void orin_hwmon_tree(const test::temp_dir& t) {
  std::string a = t.file("sys/bus/i2c/devices/1-0040");
  write_file(a + "/name", "ina3221\n");
  std::string h = a + "/hwmon/hwmon3";
  write_file(h + "/in1_label", "VDD_GPU_SOC\n");
  write_file(h + "/in1_input", "5000\n");
  write_file(h + "/curr1_input", "468\n");
  write_file(h + "/in2_label", "VDD_CPU_CV\n");
  write_file(h + "/in2_input", "5000\n");
  write_file(h + "/curr2_input", "78\n");
  write_file(h + "/in3_label", "VIN_SYS_5V0\n");
  write_file(h + "/in3_input", "5000\n");
  write_file(h + "/curr3_input", "805\n");
  write_file(h + "/in7_label", "sum of shunt voltages\n");
  write_file(h + "/in7_input", "120\n");
  std::string b = t.file("sys/bus/i2c/devices/1-0041");
  write_file(b + "/name", "ina3221\n");
  std::string h2 = b + "/hwmon/hwmon4";
  write_file(h2 + "/in1_label", "NC\n");
  write_file(h2 + "/in1_input", "0\n");
  write_file(h2 + "/curr1_input", "0\n");
  write_file(h2 + "/in2_label", "VDDQ_VDD2_1V8AO\n");
  write_file(h2 + "/in2_input", "4990\n");
  write_file(h2 + "/curr2_input", "60\n");
  write_file(h2 + "/in3_label", "NC\n");
  write_file(h2 + "/in3_input", "0\n");
  write_file(h2 + "/curr3_input", "0\n");
  write_file(t.file("sys/bus/i2c/devices/2-0050/name"), "24c02\n");
}

TEST(power_rails, r35_hwmon_skips_nc_and_sum_channel_and_sums_total) {
  test::temp_dir t;
  orin_hwmon_tree(t);
  platform::sysfs_root root(t.path());
  auto rails = discover_rails(root);
  ASSERT_EQ(rails.size(), 4u);
  EXPECT_EQ(rails[0].name, "VDD_GPU_SOC");
  EXPECT_EQ(rails[3].name, "VDDQ_VDD2_1V8AO");
  EXPECT_EQ(rails[0].voltage_path, "/sys/bus/i2c/devices/1-0040/hwmon/hwmon3/in1_input");
  EXPECT_FALSE(input_rail_index(rails));
  rail_sensor s(root, rails);
  auto ch = s.channels();
  ASSERT_EQ(ch.size(), 5u);
  EXPECT_EQ(ch[0].name, "rail.VDD_GPU_SOC");
  EXPECT_EQ(ch[4].name, "power.total");
  EXPECT_EQ(s.total_power_channel(), 4);
  std::vector<double> v(ch.size());
  s.read(0, v.data());
  EXPECT_NEAR(v[0], 2.34, 1e-9);     // 5000 mV x 468 mA
  EXPECT_NEAR(v[1], 0.39, 1e-9);
  EXPECT_NEAR(v[2], 4.025, 1e-9);
  EXPECT_NEAR(v[3], 0.2994, 1e-9);
  EXPECT_NEAR(v[4], 2.34 + 0.39 + 4.025 + 0.2994, 1e-9);
  // Re-read through the same open descriptors after the value changes.
  write_file(t.file("sys/bus/i2c/devices/1-0040/hwmon/hwmon3/curr1_input"), "1000\n");
  s.read(1, v.data());
  EXPECT_NEAR(v[0], 5.0, 1e-9);
  EXPECT_TRUE(s.sanity_check().empty());
}

// The bus voltage is read again when the current changes (a new conversion of the chip), the
// current at every tick: the product changes only at the chip's updates, never between them.
TEST(rail_sensor, hwmon_bus_voltage_is_reread_with_each_new_current) {
  test::temp_dir t;
  orin_hwmon_tree(t);
  platform::sysfs_root root(t.path());
  rail_sensor s(root, discover_rails(root));
  std::vector<double> v(s.channels().size());
  const std::string h = t.file("sys/bus/i2c/devices/1-0040/hwmon/hwmon3");
  s.read(1'000'000'000, v.data());
  EXPECT_NEAR(v[0], 2.34, 1e-9);  // 5000 mV x 468 mA
  // The voltage alone moves (a read between updates would see it on a real chip only with a new
  // current): the cached 5000 mV stays, however long after.
  write_file(h + "/in1_input", "4000\n");
  s.read(1'050'000'000, v.data());
  EXPECT_NEAR(v[0], 2.34, 1e-9);
  // The next conversion: a new current, read with its voltage.
  write_file(h + "/curr1_input", "500\n");
  s.read(1'051'000'000, v.data());
  EXPECT_NEAR(v[0], 2.0, 1e-9);
  write_file(h + "/in1_input", "6000\n");
  write_file(h + "/curr1_input", "400\n");
  s.read(1'052'000'000, v.data());
  EXPECT_NEAR(v[0], 2.4, 1e-9);
}

TEST(power_rails, hwmon_update_interval_is_the_slowest_chips) {
  test::temp_dir t;
  orin_hwmon_tree(t);
  platform::sysfs_root root(t.path());
  EXPECT_FALSE(rails_update_interval_s(discover_rails(root)));
  write_file(t.file("sys/bus/i2c/devices/1-0040/hwmon/hwmon3/update_interval"), "35\n");
  write_file(t.file("sys/bus/i2c/devices/1-0041/hwmon/hwmon4/update_interval"), "140\n");
  const auto rails = discover_rails(root);
  ASSERT_TRUE(rails[0].update_interval_s);
  EXPECT_DOUBLE_EQ(*rails[0].update_interval_s, 0.035);
  EXPECT_DOUBLE_EQ(*rails[3].update_interval_s, 0.14);
  EXPECT_DOUBLE_EQ(*rails_update_interval_s(rails), 0.14);
  write_file(t.file("sys/bus/i2c/devices/1-0041/hwmon/hwmon4/update_interval"), "junk\n");
  EXPECT_DOUBLE_EQ(*rails_update_interval_s(discover_rails(root)), 0.035);
}

TEST(power_rails, r32_iio_with_input_rail_is_the_total) {
  test::temp_dir t;
  std::string dev = t.file("sys/bus/i2c/devices/0-0040");
  write_file(dev + "/name", "ina3221x\n");
  std::string iio = dev + "/iio:device0";
  write_file(iio + "/rail_name_0", "VDD_IN\n");
  write_file(iio + "/in_power0_input", "3140\n");
  write_file(iio + "/rail_name_1", "VDD_SYS_GPU\n");
  write_file(iio + "/in_power1_input", "153\n");
  write_file(iio + "/rail_name_2", "VDD_SYS_CPU\n");
  write_file(iio + "/in_power2_input", "536\n");
  // The driver folder links to the same chip (counted once) and adds one only reachable there.
  link("../../devices/0-0040", t.file("sys/bus/i2c/drivers/ina3221x/0-0040"));
  std::string other = t.file("sys/bus/i2c/drivers/ina3221x/0-0041/iio:device1");
  write_file(other + "/rail_name_0", "VDD_SYS_SOC\n");
  write_file(other + "/in_power0_input", "536\n");
  write_file(other + "/rail_name_1", "NC\n");
  write_file(other + "/in_power1_input", "0\n");
  platform::sysfs_root root(t.path());
  auto rails = discover_rails(root);
  ASSERT_EQ(rails.size(), 4u);
  EXPECT_EQ(rails[0].driver, rail_driver::iio);
  EXPECT_EQ(rails[3].name, "VDD_SYS_SOC");
  ASSERT_TRUE(input_rail_index(rails));
  EXPECT_EQ(*input_rail_index(rails), 0u);
  EXPECT_FALSE(rails_update_interval_s(rails));  // the IIO driver does not say
  rail_sensor s(root, rails);
  auto ch = s.channels();
  ASSERT_EQ(ch.size(), 4u);  // no computed total: VDD_IN already is it
  EXPECT_EQ(s.total_power_channel(), 0);
  std::vector<double> v(ch.size());
  s.read(0, v.data());
  EXPECT_NEAR(v[0], 3.140, 1e-12);
  EXPECT_NEAR(v[1], 0.153, 1e-12);
  EXPECT_TRUE(s.sanity_check().empty());
  // Sub-rails above the input rail: a warning.
  write_file(iio + "/in_power0_input", "500\n");
  auto w = s.sanity_check();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("VDD_IN"), std::string::npos);
}

TEST(power_rails, no_rails_is_empty_and_sensor_refuses) {
  test::temp_dir t;
  platform::sysfs_root root(t.path());
  EXPECT_TRUE(discover_rails(root).empty());
  EXPECT_THROW(rail_sensor(root, {}), platform_error);
}

TEST(thermal_sensor, offline_and_pmic) {
  test::temp_dir t;
  std::string base = t.file("sys/devices/virtual/thermal");
  write_file(base + "/thermal_zone0/type", "CPU-therm\n");
  write_file(base + "/thermal_zone0/temp", "44562\n");
  write_file(base + "/thermal_zone1/type", "GPU-therm\n");
  write_file(base + "/thermal_zone1/temp", "-256000\n");
  write_file(base + "/thermal_zone2/type", "PMIC-Die\n");
  write_file(base + "/thermal_zone2/temp", "100000\n");
  write_file(base + "/thermal_zone10/type", "tj-therm\n");
  write_file(base + "/thermal_zone10/temp", "44343\n");
  write_file(base + "/cooling_device0/type", "pwm-fan\n");
  platform::sysfs_root root(t.path());
  thermal_sensor s(root);
  auto ch = s.channels();
  ASSERT_EQ(ch.size(), 3u);
  EXPECT_EQ(ch[0].name, "temp.CPU-therm");
  EXPECT_EQ(ch[1].name, "temp.GPU-therm");
  EXPECT_EQ(ch[2].name, "temp.tj-therm");
  std::vector<double> v(3);
  s.read(0, v.data());
  EXPECT_DOUBLE_EQ(v[0], 44.562);
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_DOUBLE_EQ(v[2], 44.343);
  thermal_sensor with_pmic(root, false);
  EXPECT_EQ(with_pmic.channels().size(), 4u);
}

TEST(clock_sensor, gpu_found_through_devfreq_of_node) {
  test::temp_dir t;
  std::string gpu = t.file("sys/devices/platform/17000000.gpu");
  write_file(gpu + "/of_node/name", "gpu");
  write_file(gpu + "/load", "567\n");
  write_file(gpu + "/devfreq_dev/cur_freq", "918000000\n");
  link("../../devices/platform/17000000.gpu/devfreq_dev", t.file("sys/class/devfreq/17000000.gpu"));
  link("..", gpu + "/devfreq_dev/device");
  std::string dla = t.file("sys/devices/platform/15880000.nvdla0");
  write_file(dla + "/of_node/name", "nvdla0");
  write_file(dla + "/devfreq/cur_freq", "1\n");
  link("../../devices/platform/15880000.nvdla0/devfreq", t.file("sys/class/devfreq/15880000.nvdla0"));
  link("..", dla + "/devfreq/device");
  write_file(t.file("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq"), "729600\n");
  write_file(t.file("sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq"), "2201600\n");
  write_file(t.file("sys/devices/system/cpu/cpufreq/policy0/x"), "");
  write_file(t.file("sys/kernel/debug/bpmp/debug/clk/emc/rate"), "2133000000\n");
  platform::sysfs_root root(t.path());
  // The sensor's GPU is platform's detection (one GPU detection for the board and the sensors).
  auto node = platform::find_gpu_node(root);
  ASSERT_TRUE(node);
  EXPECT_EQ(node->of_name, "gpu");
  EXPECT_EQ(node->device_dir, "/sys/devices/platform/17000000.gpu");
  EXPECT_EQ(node->freq_dir, "/sys/devices/platform/17000000.gpu/devfreq_dev");
  clock_sensor s(root);
  auto ch = s.channels();
  ASSERT_EQ(ch.size(), 5u);
  EXPECT_EQ(ch[0].name, "clock.gpu");
  EXPECT_EQ(ch[1].name, "util.gpu");
  EXPECT_EQ(ch[2].name, "clock.emc");
  EXPECT_EQ(ch[4].name, "clock.cpu1");
  std::vector<double> v(ch.size());
  s.read(0, v.data());
  EXPECT_DOUBLE_EQ(v[0], 918e6);
  EXPECT_DOUBLE_EQ(v[1], 56.7);
  EXPECT_DOUBLE_EQ(v[2], 2133e6);
  EXPECT_DOUBLE_EQ(v[3], 729.6e6);
  EXPECT_DOUBLE_EQ(v[4], 2201.6e6);

  // An offline core keeps a stale scaling_cur_freq; it must read as "no value", not as a clock.
  write_file(t.file("sys/devices/system/cpu/cpu1/online"), "0\n");
  clock_sensor with_offline(root);
  std::vector<double> w(with_offline.channels().size());
  with_offline.read(0, w.data());
  EXPECT_DOUBLE_EQ(w[3], 729.6e6);
  EXPECT_TRUE(std::isnan(w[4]));
}

// Engine clocks where tegrastats reads them (fixture sysfs_tegrastats-internal-sources_tstats.txt):
// BPMP's rate on t194/t234 (first), the clock's own clk_rate on t210; gated: 0; APE has no gate.
TEST(engine_sensor, gated_engines_read_zero_and_running_ones_their_rate) {
  test::temp_dir t;
  write_file(t.file("sys/kernel/debug/clk/nvdec/clk_enable_count"), "0\n");
  write_file(t.file("sys/kernel/debug/bpmp/debug/clk/nvdec/rate"), "115200000\n");
  write_file(t.file("sys/kernel/debug/clk/vic/clk_enable_count"), "2\n");
  write_file(t.file("sys/kernel/debug/bpmp/debug/clk/vic/rate"), "729600000\n");
  write_file(t.file("sys/kernel/debug/clk/vic/clk_rate"), "1\n");  // BPMP's rate wins
  write_file(t.file("sys/kernel/debug/bpmp/debug/clk/ape/rate"), "174000000\n");
  write_file(t.file("sys/kernel/debug/clk/nvjpg/clk_rate"), "408000000\n");  // t210: no BPMP
  write_file(t.file("sys/kernel/debug/clk/unknown_engine/clk_rate"), "1\n");
  platform::sysfs_root root(t.path());
  engine_sensor s(root);
  const auto ch = s.channels();
  std::vector<std::string> names;
  for (const auto& c : ch) names.push_back(c.name);
  // In tegrastats' order.
  EXPECT_EQ(names, (std::vector<std::string>{"clock.nvdec", "clock.nvjpg", "clock.vic", "clock.ape"}));
  std::vector<double> v(ch.size());
  s.read(0, v.data());
  EXPECT_EQ(v[0], 0.0);
  EXPECT_EQ(v[1], 408e6);
  EXPECT_EQ(v[2], 729.6e6);
  EXPECT_EQ(v[3], 174e6);
  // The decoder starts: its rate.
  write_file(t.file("sys/kernel/debug/clk/nvdec/clk_enable_count"), "1\n");
  s.read(0, v.data());
  EXPECT_EQ(v[0], 115.2e6);
}

TEST(engine_sensor, no_engine_files_is_empty) {
  test::temp_dir t;
  write_file(t.file("sys/kernel/debug/bpmp/debug/clk/emc/rate"), "2133000000\n");
  platform::sysfs_root root(t.path());
  EXPECT_TRUE(engine_sensor(root).empty());
}

TEST(cpu_util_sensor, jiffies_deltas) {
  test::temp_dir t;
  std::string stat = t.file("proc/stat");
  write_file(stat, "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\ncpu1 50 0 50 400 0 0 0 0 0 0\nintr 1 2\n");
  platform::sysfs_root root(t.path());
  cpu_util_sensor s(root);
  auto ch = s.channels();
  ASSERT_EQ(ch.size(), 3u);
  EXPECT_EQ(ch[0].name, "util.cpu");
  EXPECT_EQ(ch[2].name, "util.cpu1");
  EXPECT_EQ(s.min_interval_ns(), 100'000'000);
  // cpu0 fully busy for 100 jiffies, cpu1 idle (100 idle + iowait jiffies).
  write_file(stat, "cpu  200 0 100 850 50 0 0 0 0 0\ncpu0 150 0 50 400 0 0 0 0 0 0\ncpu1 50 0 50 450 50 0 0 0 0 0\n");
  std::vector<double> v(3);
  s.read(0, v.data());
  EXPECT_DOUBLE_EQ(v[0], 50.0);
  EXPECT_DOUBLE_EQ(v[1], 100.0);
  EXPECT_DOUBLE_EQ(v[2], 0.0);
  auto parsed = parse_proc_stat("cpu 1 2 3 4 5 6 7 8\ncpu3 1 1 1 1 0 0 0 0\n");
  ASSERT_EQ(parsed.size(), 5u);
  EXPECT_EQ(parsed[0].total, 36u);
  EXPECT_EQ(parsed[0].busy, 27u);
  EXPECT_EQ(parsed[4].busy, 3u);
}

TEST(rapl_sensor, wrap_around) {
  EXPECT_EQ(rapl_energy_delta_uj(100, 300, 1000), 200u);
  EXPECT_EQ(rapl_energy_delta_uj(900, 100, 999), 200u);
  test::temp_dir t;
  std::string pkg = t.file("sys/class/powercap/intel-rapl:0");
  write_file(pkg + "/name", "package-0\n");
  write_file(pkg + "/max_energy_range_uj", "262143999999\n");
  write_file(pkg + "/energy_uj", "262143000000\n");
  write_file(t.file("sys/class/powercap/intel-rapl:0:0/name"), "core\n");
  write_file(t.file("sys/class/powercap/intel-rapl:0:0/max_energy_range_uj"), "262143999999\n");
  write_file(t.file("sys/class/powercap/intel-rapl:0:0/energy_uj"), "5000000\n");
  platform::sysfs_root root(t.path());
  rapl_sensor s(root);
  auto ch = s.channels();
  ASSERT_EQ(ch.size(), 3u);
  EXPECT_EQ(ch[0].name, "rail.rapl.package-0");
  EXPECT_EQ(ch[1].name, "rail.rapl.package-0.core");
  EXPECT_EQ(ch[2].name, "power.total");
  EXPECT_EQ(s.total_power_channel(), 2);
  std::vector<double> v(3);
  s.read(1'000'000'000, v.data());
  EXPECT_TRUE(std::isnan(v[0]));  // no previous reading yet
  EXPECT_TRUE(std::isnan(v[2]));
  // 1 J until the wrap plus 10 J after it, in 2 s.
  write_file(pkg + "/energy_uj", "10000000\n");
  write_file(t.file("sys/class/powercap/intel-rapl:0:0/energy_uj"), "7000000\n");
  s.read(3'000'000'000, v.data());
  EXPECT_NEAR(v[0], 5.5, 1e-9);
  EXPECT_NEAR(v[1], 1.0, 1e-9);
  EXPECT_NEAR(v[2], 5.5, 1e-9);
}

}  // namespace
}  // namespace jetperf::telemetry
