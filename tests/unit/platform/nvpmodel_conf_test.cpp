#include <jetperf/platform/nvpmodel_conf.hpp>

#include <filesystem>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/nvpmodel_tool.hpp>
#include <support/temp_dir.hpp>
#include <support/fixtures.hpp>

using namespace jetperf::platform;

namespace {


std::vector<std::string> mode_names(const nvpmodel_conf& c) {
  std::vector<std::string> n;
  for (const auto& m : c.modes) n.push_back(std::to_string(m.id) + ":" + m.name);
  return n;
}

}  // namespace

TEST(nvpmodel_conf, xavier_agx_r32_modes_and_settings) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_xavier-agx_t194_r32.5_mlperf-modified.conf");
  auto c = parse_nvpmodel_conf(text);
  EXPECT_EQ(mode_names(c), (std::vector<std::string>{"0:MAXN", "1:MODE_10W", "2:MODE_15W", "3:MODE_30W_ALL",
                                                      "4:MODE_30W_6CORE", "5:MODE_30W_4CORE", "6:MODE_30W_2CORE",
                                                      "7:MODE_15W_DESKTOP", "8:MODE_MLPERF_V1_MAXQ"}));
  EXPECT_EQ(c.default_mode, 8);
  EXPECT_EQ(c.default_fan_mode, "cool");
  const auto* m = c.find_mode("MODE_10W");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->id, 1);
  EXPECT_EQ(m->value("GPU", "MAX_FREQ"), std::string("520000000"));
  EXPECT_EQ(m->value("EMC", "MAX_FREQ"), std::string("1065600000"));
  EXPECT_EQ(m->value("CPU_ONLINE", "CORE_1"), std::string("1"));
  EXPECT_EQ(m->value("CPU_ONLINE", "CORE_2"), std::string("0"));
  EXPECT_EQ(m->value("CPU_ONLINE", "CORE_7"), std::string("0"));
  EXPECT_EQ(m->value("TPC_POWER_GATING", "TPC_PG_MASK"), std::string("5"));
  EXPECT_FALSE(m->value("CPU_DENVER_1", "MAX_FREQ"));
  EXPECT_EQ(nvpmodel_clock_value(*c.find_mode(0)->value("GPU", "MAX_FREQ")), 2147483647LL);
  const auto* gpu = c.find_param("GPU");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->type, "CLOCK");
  EXPECT_EQ(gpu->find_arg("MIN_FREQ")->path, "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b/min_freq");
  EXPECT_EQ(c.find_param("DLA_CORE")->find_arg("MAX_FREQ_KNEXT")->path, "/sys/kernel/nvpmodel_emc_cap/nafll_dla");
  // Settings stay in file order: power control "on" before the GPU clock, "auto" after it.
  std::vector<std::string> order;
  for (const auto& s : m->settings)
    if (s.param.rfind("GPU", 0) == 0) order.push_back(s.param + " " + s.arg);
  EXPECT_EQ(order, (std::vector<std::string>{"GPU_POWER_CONTROL_ENABLE GPU_PWR_CNTL_EN", "GPU MIN_FREQ", "GPU MAX_FREQ",
                                             "GPU_POWER_CONTROL_DISABLE GPU_PWR_CNTL_DIS"}));
  EXPECT_EQ(reboot_reasons(c, 0, 1), (std::vector<std::string>{"TPC_PG_MASK 0 -> 5"}));
  EXPECT_TRUE(reboot_reasons(c, 0, 2).empty());
  EXPECT_TRUE(reboot_reasons(c, 1, 1).empty());
}

TEST(nvpmodel_conf, nano_r32_double_spaces_and_knext) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_nano_t210_r32.conf");
  auto c = parse_nvpmodel_conf(text);
  EXPECT_EQ(mode_names(c), (std::vector<std::string>{"0:MAXN", "1:5W", "2:7W"}));
  EXPECT_EQ(c.default_mode, 0);
  EXPECT_EQ(c.default_fan_mode, "");
  EXPECT_EQ(c.find_mode(0)->value("CPU_A57", "MIN_FREQ"), std::string("0"));  // "MIN_FREQ  0"
  EXPECT_EQ(c.find_mode(0)->value("CPU_A57", "MAX_FREQ"), std::string("-1"));
  EXPECT_EQ(c.find_mode(1)->value("CPU_A57", "MAX_FREQ"), std::string("918000"));
  EXPECT_EQ(c.find_mode(1)->value("GPU", "MAX_FREQ"), std::string("640000000"));
  EXPECT_EQ(c.find_mode(1)->value("EMC", "MAX_FREQ"), std::string("1600000000"));
  EXPECT_EQ(c.find_param("GPU")->find_arg("FREQ_TABLE")->path, "/sys/devices/gpu.0/devfreq/57000000.gpu/available_frequencies");
  EXPECT_EQ(c.find_param("GPU")->find_arg("FREQ_TABLE_KNEXT")->path,
            "/sys/devices/17000000.gv11b/devfreq/devfreq0/available_frequencies");
  EXPECT_TRUE(reboot_reasons(c, 0, 1).empty());  // no gating params on Nano
}

TEST(nvpmodel_conf, orin_nano_r36_missing_space_after_bracket) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_orin-nano_p3767_r36_user-modified.conf");
  auto c = parse_nvpmodel_conf(text);
  EXPECT_EQ(mode_names(c), (std::vector<std::string>{"0:DYNAMIC_MODE"}));
  EXPECT_EQ(c.default_mode, 0);
  const auto* emc = c.find_param("EMC");  // "<PARAM TYPE=CLOCK NAME=EMC >"
  ASSERT_NE(emc, nullptr);
  EXPECT_EQ(emc->type, "CLOCK");
  EXPECT_EQ(emc->find_arg("MAX_FREQ")->path, "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap");
  EXPECT_EQ(emc->find_arg("MAX_FREQ_KNEXT")->path, "/sys/kernel/nvpmodel_clk_cap/emc");
  EXPECT_EQ(c.find_param("GPU")->find_arg("MAX_FREQ_KNEXT")->path, "/sys/devices/platform/17000000.gpu/devfreq_dev/max_freq");
  EXPECT_EQ(c.find_param("FBP_POWER_GATING")->find_arg("FBP_PG_MASK_KNEXT")->path, "/sys/devices/platform/gpu.0/fbp_pg_mask");
  EXPECT_EQ(c.find_param("CPU_ONLINE")->args.size(), 6u);
  EXPECT_EQ(c.find_mode(0)->value("GPU", "MAX_FREQ"), std::string("306000000"));
  EXPECT_EQ(c.find_mode(0)->value("EMC", "MAX_FREQ"), std::string("3199000000"));
  EXPECT_EQ(c.find_mode(0)->value("CPU_ONLINE", "CORE_3"), std::string("0"));
}

TEST(nvpmodel_conf, tx2_r32_modes) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_tx2_t186_r32.conf");
  auto c = parse_nvpmodel_conf(text);
  EXPECT_EQ(mode_names(c), (std::vector<std::string>{"0:MAXN", "1:MAXQ", "2:MAXP_CORE_ALL", "3:MAXP_CORE_ARM"}));
  EXPECT_EQ(c.default_mode, 3);
  EXPECT_EQ(c.find_mode(1)->value("GPU", "MAX_FREQ"), std::string("850000000"));
  EXPECT_EQ(c.find_mode(1)->value("EMC", "MAX_FREQ"), std::string("1331200000"));
  EXPECT_EQ(c.find_mode(3)->value("CPU_ONLINE", "CORE_1"), std::string("0"));
  EXPECT_EQ(c.find_param("CPU_DENVER")->find_arg("MAX_FREQ")->path, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_max_freq");
  EXPECT_EQ(c.find_param("GPU")->find_arg("MIN_FREQ_KNEXT")->path, "/sys/devices/17000000.gp10b/devfreq/devfreq0/min_freq");
}

TEST(nvpmodel_conf, xavier_nx_r32_7_hwmon) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_xavier-nx_p3668_r32.7.conf");
  auto c = parse_nvpmodel_conf(text);
  EXPECT_EQ(c.modes.size(), 9u);
  EXPECT_EQ(c.default_mode, 5);
  EXPECT_EQ(c.find_mode(5)->name, "MODE_10W_DESKTOP");
  EXPECT_EQ(c.find_mode(5)->value("GPU", "MAX_FREQ"), std::string("510000000"));
  EXPECT_EQ(c.find_mode(2)->value("GPU", "MAX_FREQ"), std::string("1109250000"));
  EXPECT_EQ(c.find_mode(4)->value("GPU", "MAX_FREQ"), std::string("803250000"));
  const auto* oc = c.find_param("VDDIN_OC_LIMIT");
  ASSERT_NE(oc, nullptr);
  EXPECT_EQ(oc->type, "HWMON");
  ASSERT_NE(oc->find_arg("WARN"), nullptr);
  EXPECT_EQ(oc->find_arg("WARN")->path, "/sys/devices/platform/c250000.i2c/i2c-7/7-0040/hwmon");
  EXPECT_EQ(oc->find_arg("WARN")->attribute, "curr1_max");
  EXPECT_EQ(oc->find_arg("CRIT")->attribute, "curr1_crit");
  EXPECT_EQ(c.find_mode(0)->value("VDDIN_OC_LIMIT", "WARN"), std::string("3000"));
  EXPECT_EQ(c.find_mode(0)->value("VDDIN_OC_LIMIT", "CRIT"), std::string("5000"));
  EXPECT_TRUE(reboot_reasons(c, 0, 8).empty());  // every NX mode gates the same TPC
}

TEST(nvpmodel_conf, terminal_wrapped_lines_parse_like_the_original) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_nano_t210_r32.conf");
  // Wrap every line at 80 columns, as a copy from a terminal does.
  std::string wrapped;
  std::istringstream in(text);
  std::string line;
  int long_lines = 0;
  while (std::getline(in, line)) {
    if (line.size() > 80) ++long_lines;
    while (line.size() > 80) {
      wrapped += line.substr(0, 80) + "\n";
      line = line.substr(80);
    }
    wrapped += line + "\n";
  }
  ASSERT_GT(long_lines, 0);
  auto a = parse_nvpmodel_conf(text);
  auto b = parse_nvpmodel_conf(wrapped);
  ASSERT_EQ(a.params.size(), b.params.size());
  for (size_t i = 0; i < a.params.size(); ++i) {
    ASSERT_EQ(a.params[i].args.size(), b.params[i].args.size()) << a.params[i].name;
    for (size_t k = 0; k < a.params[i].args.size(); ++k) EXPECT_EQ(a.params[i].args[k].path, b.params[i].args[k].path);
  }
  EXPECT_EQ(mode_names(a), mode_names(b));
}

TEST(nvpmodel_conf, wrapped_setting_and_tag_lines) {
  const std::string text =
      "< PARAM TYPE=CLOCK NAME=GPU >\nMAX_FREQ /sys/devices/gpu/max_freq\n"
      "< POWER_MODEL ID=0\nNAME=MAXN >\nGPU MAX_FREQ\n-1\nGPU MAX_FR\nEQ 5\n< PM_CONFIG DEFAULT=0 >\n";
  auto c = parse_nvpmodel_conf(text);
  ASSERT_EQ(c.modes.size(), 1u);
  EXPECT_EQ(c.modes[0].name, "MAXN");
  ASSERT_EQ(c.modes[0].settings.size(), 2u);
  EXPECT_EQ(c.modes[0].settings[0].value, "-1");
  EXPECT_EQ(c.modes[0].settings[1].arg, "MAX_FREQ");
  EXPECT_EQ(c.modes[0].settings[1].value, "5");
}

TEST(nvpmodel_conf, malformed_input_is_a_platform_error_with_the_line) {
  const std::string ok_tail = "< POWER_MODEL ID=0 NAME=A >\nX Y 1\n< PM_CONFIG DEFAULT=0 >\n";
  EXPECT_THROW(parse_nvpmodel_conf("< POWER_MODEL ID=0 NAME=A >\nX Y 1\n"), jetperf::platform_error);  // no PM_CONFIG
  EXPECT_THROW(parse_nvpmodel_conf("< POWER_MODEL ID=0 NAME=A >\n< PM_CONFIG DEFAULT=3 >\n"), jetperf::platform_error);
  EXPECT_THROW(parse_nvpmodel_conf("< BOGUS X=1 >\n" + ok_tail), jetperf::platform_error);
  EXPECT_THROW(parse_nvpmodel_conf("< POWER_MODEL ID=x NAME=A >\n< PM_CONFIG DEFAULT=0 >\n"), jetperf::platform_error);
  EXPECT_THROW(parse_nvpmodel_conf(""), jetperf::platform_error);
  try {
    parse_nvpmodel_conf("stray text\n" + ok_tail);
    FAIL();
  } catch (const jetperf::platform_error& e) {
    EXPECT_NE(std::string(e.what()).find("line 1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(nvpmodel_clock_value("abc"), jetperf::platform_error);
  EXPECT_EQ(nvpmodel_clock_value("0"), 0);
}
