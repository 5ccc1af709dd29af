// The board's JSON forms (api/board_views.hpp) over hand-made structs: every key, null vs
// absent, integers staying integers. The routes' tests cover the same forms over a real board.
#include <jetperf/api/board_views.hpp>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>

namespace jetperf::api {
namespace {

using nlohmann::json;

platform::board_info orin_info() {
  platform::board_info i;
  i.jetson = true;
  i.family = "t234";
  i.soc = "tegra234";
  i.model = "Jetson AGX Orin";
  i.module = "AGX Orin";
  i.compatible = {"nvidia,p3701-0000", "nvidia,tegra234"};
  i.l4t = "35.4.1";
  i.l4t_major = 35;
  i.jetpack = "5.1.2";
  return i;
}

TEST(board_views, board_info_has_eight_keys_without_l4t_major) {
  EXPECT_EQ(board_info_json(orin_info()),
            json::parse(R"({"jetson":true,"family":"t234","soc":"tegra234","model":"Jetson AGX Orin","module":"AGX Orin",
                            "compatible":["nvidia,p3701-0000","nvidia,tegra234"],"l4t":"35.4.1","jetpack":"5.1.2"})"));
}

TEST(board_views, discovery_names_every_path_and_a_missing_gpu_is_null) {
  platform::board_discovery d;
  d.clusters.push_back({{0, 1}, "/sys/devices/system/cpu/cpufreq/policy0"});
  d.cores = {0, 1};
  d.emc.kind = "bpmp";
  d.emc.rate = "/r";
  d.fan_pwm = "/fan";
  auto j = board_discovery_json(d);
  EXPECT_TRUE(j["gpu"].is_null());
  EXPECT_EQ(j["cpu_clusters"], json::parse(R"([{"cores":[0,1],"cpufreq_dir":"/sys/devices/system/cpu/cpufreq/policy0"}])"));
  EXPECT_EQ(j["cores"], json::parse("[0,1]"));
  EXPECT_EQ(j["emc"], json::parse(R"({"kind":"bpmp","rate":"/r","min_rate":"","max_rate":"","lock":"","update":"",
                                      "possible":"","cap":""})"));
  EXPECT_EQ(j["fan_pwm"], "/fan");
  d.gpu = platform::gpu_node{"ga10b", "/f", "/d"};
  EXPECT_EQ(board_discovery_json(d)["gpu"], json::parse(R"({"of_name":"ga10b","freq_dir":"/f","device_dir":"/d"})"));
}

TEST(board_views, current_settings_has_every_key_null_when_absent) {
  EXPECT_EQ(current_settings_json({}).dump(),
            R"({"cpu_cur_khz":null,"cpu_freq_khz":null,"emc_freq_hz":null,"emc_locked":null,"gpu_cur_hz":null,)"
            R"("gpu_freq_hz":null,"gpu_max_hz":null,"gpu_min_hz":null,"power_mode":null,"power_mode_name":null})");
  platform::current_settings c;
  c.power_mode = 3;
  c.power_mode_name = "MODE_50W";
  c.gpu_freq_hz = c.gpu_min_hz = c.gpu_max_hz = 828750000;
  c.gpu_cur_hz = 828750000;
  c.cpu_freq_khz = c.cpu_cur_khz = 1497600;
  c.emc_freq_hz = 3199000000LL;
  c.emc_locked = true;
  const auto j = current_settings_json(c);
  EXPECT_EQ(j["power_mode"], 3);
  EXPECT_EQ(j["power_mode_name"], "MODE_50W");
  EXPECT_EQ(j["gpu_min_hz"], 828750000);
  EXPECT_EQ(j["cpu_cur_khz"], 1497600);
  EXPECT_TRUE(j["emc_freq_hz"].is_number_integer());
  EXPECT_EQ(j["emc_freq_hz"], 3199000000LL);
  EXPECT_EQ(j["emc_locked"], true);
}

TEST(board_views, a_mode_shows_only_the_caps_its_settings_name) {
  platform::power_mode_description bare{1,     "MODE_15W",  false, std::nullopt, std::nullopt, std::nullopt, true,
                                        std::nullopt, false, false, false};
  platform::power_mode_description full{2,       "MODE_30W", true,  930750000, 3199000000LL, 8, false,
                                        1728000, false,      false, false};
  EXPECT_EQ(power_modes_json({bare, full}),
            json::parse(R"([{"id":1,"name":"MODE_15W","default":false,"reboot_needed_from_default":true},
                            {"id":2,"name":"MODE_30W","default":true,"gpu_max_hz":930750000,"emc_max_hz":3199000000,
                             "cpu_max_khz":1728000,"cores_online":8,"reboot_needed_from_default":false}])"));
}

// nvpmodel's "no limit" (-1, read as 2147483647; an EMC cap of 0) is null, which `jetperf mode`
// prints as "no cap", not the sentinel's number.
TEST(board_views, a_mode_without_a_cap_says_null_not_the_sentinel) {
  platform::power_mode_description maxn{0,     "MAXN", false, std::nullopt, std::nullopt, 12, false,
                                        std::nullopt, true,   true,  true};
  EXPECT_EQ(power_modes_json({maxn}),
            json::parse(R"([{"id":0,"name":"MAXN","default":false,"gpu_max_hz":null,"emc_max_hz":null,
                             "cpu_max_khz":null,"cores_online":12,"reboot_needed_from_default":false}])"));
}

TEST(board_views, board_without_controls_has_nulls_and_empty_lists) {
  platform::board_description d;
  d.info.family = "host";
  const auto j = board_json(d);
  EXPECT_EQ(j["modes"], json::array());
  EXPECT_TRUE(j["default_mode"].is_null());
  EXPECT_TRUE(j["gpu"].is_null());
  EXPECT_TRUE(j["emc"].is_null());
  EXPECT_TRUE(j["fan"].is_null());
  EXPECT_TRUE(j["nvpmodel"].is_null());
  EXPECT_EQ(j["cpu"], json::parse(R"({"clusters":[],"cores":[],"online":[],"available_khz":[]})"));
  EXPECT_EQ(j["family"], "host");
  EXPECT_EQ(j["paths"]["fan_pwm"], "");
}

TEST(board_views, board_with_controls_shows_ranges_and_settings) {
  platform::board_description d;
  d.info = orin_info();
  d.default_mode = 2;
  d.gpu = platform::gpu_description{{114750000, 1300500000}, {114750000, 1300500000, "nvhost_podgov"}, "devfreq_governor"};
  d.cpu.clusters.push_back({{0, 1}, {115200, 2201600}, platform::clock_range{115200, 2201600, "schedutil"}});
  d.cpu.clusters.push_back({{2, 3}, {115200}, std::nullopt});  // offline: lists only
  d.cpu.cores = {0, 1, 2, 3};
  d.cpu.online = {0, 1};
  d.cpu.available_khz = {115200};
  d.emc = platform::emc_description{{204000000, 3199000000LL}, platform::emc_setting{3199000000LL, 204000000, 3199000000LL, false, 0}};
  d.has_fan = true;
  d.nvpmodel = "/usr/sbin/nvpmodel";
  const auto j = board_json(d);
  EXPECT_EQ(j["default_mode"], 2);
  EXPECT_EQ(j["gpu"], json::parse(R"({"available_hz":[114750000,1300500000],"min_hz":114750000,"max_hz":1300500000,
                                      "governor":"nvhost_podgov","scaling":"devfreq_governor"})"));
  EXPECT_EQ(j["cpu"]["clusters"], json::parse(R"([{"cores":[0,1],"available_khz":[115200,2201600],"min_khz":115200,
                                                   "max_khz":2201600,"governor":"schedutil"},
                                                  {"cores":[2,3],"available_khz":[115200]}])"));
  EXPECT_EQ(j["cpu"]["online"], json::parse("[0,1]"));
  EXPECT_EQ(j["emc"], json::parse(R"({"available_hz":[204000000,3199000000],"rate_hz":3199000000,"min_hz":204000000,
                                      "max_hz":3199000000,"locked":false})"));
  EXPECT_EQ(j["fan"], json::parse(R"({"pwm":null})"));  // a fan whose PWM could not be read
  EXPECT_EQ(j["nvpmodel"], "/usr/sbin/nvpmodel");
  EXPECT_EQ(j["jetpack"], "5.1.2");
  d.emc->setting.reset();
  d.fan_pwm = 120;
  EXPECT_EQ(board_json(d)["emc"], json::parse(R"({"available_hz":[204000000,3199000000]})"));
  EXPECT_EQ(board_json(d)["fan"]["pwm"], 120);
}

TEST(board_views, power_mode_and_clock_state) {
  EXPECT_EQ(power_mode_json({3, "MODE_50W", 2, "quiet"}),
            json::parse(R"({"id":3,"name":"MODE_50W","default":2,"fan_mode":"quiet"})"));
  platform::clock_status c;
  c.current.gpu_cur_hz = 5;
  c.armed = true;
  c.state.fan_pwm = 77;
  const auto j = clock_state_json(c);
  EXPECT_EQ(j["armed"], true);
  EXPECT_EQ(j["gpu_cur_hz"], 5);
  EXPECT_TRUE(j["power_mode"].is_null());
  EXPECT_EQ(j["state"]["fan_pwm"], 77);
  EXPECT_TRUE(j["state"]["gpu"].is_null());
  EXPECT_EQ(j.size(), 12u);
}

void expect_refused(const json& value, const std::vector<long long>& offered, const std::string& message) {
  try {
    pick_frequency(value, offered, "gpu");
    ADD_FAILURE() << value.dump() << " was accepted";
  } catch (const validation_error& e) {
    EXPECT_EQ(e.field(), "gpu");
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(board_views, pick_frequency_reads_a_value_min_or_max) {
  EXPECT_EQ(pick_frequency("max", {1, 5, 9}, "f"), 9);
  EXPECT_EQ(pick_frequency("min", {1, 5, 9}, "f"), 1);
  EXPECT_EQ(pick_frequency(5, {1, 5, 9}, "f"), 5);
  expect_refused("fast", {1, 5, 9}, "gpu: 'fast' is not a frequency, \"min\" or \"max\"");
  expect_refused(2.5, {1, 5, 9}, "gpu: expected an integer frequency, \"min\" or \"max\"");
  expect_refused(2, {1, 5, 9}, "gpu 2 is not offered by this board; valid: 1, 5, 9");
  // Without the control, that is the answer, whatever the value.
  expect_refused("fast", {}, "this board offers no gpu control");
}

TEST(board_views, clock_request_resolves_each_clock_and_refuses_others) {
  const platform::clock_offer offer{{100, 200}, {10, 20}, {1000, 2000}};
  const auto r = read_clock_request({{"gpu", "max"}, {"cpu", 10}, {"emc", "min"}}, offer);
  EXPECT_EQ(r.gpu_hz, 200);
  EXPECT_EQ(r.cpu_khz, 10);
  EXPECT_EQ(r.emc_hz, 1000);
  EXPECT_FALSE(read_clock_request({{"gpu", 100}}, offer).cpu_khz.has_value());
  try {
    read_clock_request({{"turbo", 1}}, offer);
    FAIL() << "expected validation_error";
  } catch (const validation_error& e) {
    EXPECT_EQ(e.field(), "turbo");
    EXPECT_EQ(e.code(), "unknown_field");
  }
  EXPECT_THROW(read_clock_request(json::array({1}), offer), validation_error);
}

// "min" and "max" are the power mode's limits; a value is read against what the board offers, so
// one above the mode's cap reaches the controller, which refuses it as above the cap.
TEST(board_views, clock_request_reads_min_and_max_from_the_mode_s_limits) {
  const platform::clock_offer offered{{100, 200, 300}, {10, 20}, {1000, 2000}};
  const platform::clock_offer limits{{100, 200}, {10, 20}, {1000}};
  const auto r = read_clock_request({{"gpu", "max"}, {"emc", "max"}}, offered, limits);
  EXPECT_EQ(r.gpu_hz, 200);
  EXPECT_EQ(r.emc_hz, 1000);
  EXPECT_EQ(read_clock_request({{"gpu", 300}}, offered, limits).gpu_hz, 300);
  EXPECT_THROW(read_clock_request({{"gpu", 250}}, offered, limits), validation_error);
}

}  // namespace
}  // namespace jetperf::api
