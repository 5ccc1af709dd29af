// nvpmodel.conf parsing over the project's own conf fixtures (tests/fixtures/nvpmodel_conf_*_jetperf.conf):
// the real mode ids, names, limits and paths of each board family, written in nvpmodel's grammar
// with every quirk real copies show. Each quirk is checked to be in the file, so the fixture cannot
// lose it unnoticed, and then checked to parse.
#include <jetperf/platform/nvpmodel_conf.hpp>

#include <iterator>
#include <sstream>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/nvpmodel_tool.hpp>
#include <support/fixtures.hpp>

using namespace jetperf::platform;

namespace {

std::vector<std::string> mode_names(const nvpmodel_conf& c) {
  std::vector<std::string> n;
  for (const auto& m : c.modes) n.push_back(std::to_string(m.id) + ":" + m.name);
  return n;
}

std::string path_of(const nvpmodel_conf& c, const std::string& param, const std::string& arg) {
  const nvpmodel_param* p = c.find_param(param);
  if (!p) return "<no PARAM " + param + ">";
  const nvpmodel_param_arg* a = p->find_arg(arg);
  return a ? a->path : "<no " + param + " " + arg + ">";
}

// Every line cut into pieces of at most `width` characters, as a copy from a terminal that wide.
std::string wrap(const std::string& text, std::size_t width) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    while (line.size() > width) {
      out += line.substr(0, width) + "\n";
      line = line.substr(width);
    }
    out += line + "\n";
  }
  return out;
}

// What a parsed conf says, as text: two confs that print the same hold the same facts.
std::string facts(const nvpmodel_conf& c) {
  std::ostringstream o;
  o << "default " << c.default_mode << " fan " << c.default_fan_mode << "\n";
  for (const auto& p : c.params) {
    o << "PARAM " << p.type << " " << p.name << "\n";
    for (const auto& a : p.args) o << "  " << a.name << " [" << a.path << "] [" << a.attribute << "]\n";
  }
  for (const auto& m : c.modes) {
    o << "MODE " << m.id << " " << m.name << "\n";
    for (const auto& s : m.settings) o << "  " << s.param << " " << s.arg << " [" << s.value << "]\n";
  }
  return o.str();
}

const char* const k_confs[] = {"nvpmodel_conf_tx2_jetperf.conf",        "nvpmodel_conf_nano_jetperf.conf",
                               "nvpmodel_conf_xavier-agx_jetperf.conf", "nvpmodel_conf_xavier-nx_jetperf.conf",
                               "nvpmodel_conf_orin-agx_jetperf.conf",   "nvpmodel_conf_orin-nano_jetperf.conf"};

}  // namespace

TEST(nvpmodel_conf, fixtures_are_the_projects_own_and_all_present) {
  EXPECT_EQ(jetperf::test::fixture_names("nvpmodel_conf_").size(), std::size(k_confs));
  for (const char* name : k_confs) {
    JETPERF_LOAD_FIXTURE(text, name);
    EXPECT_NE(text.find("written by the jetperf project in nvpmodel's"), std::string::npos) << name;
    // NVIDIA's licence header must never come into the repository with a copied file.
    EXPECT_EQ(text.find("NVIDIA CORPORATION"), std::string::npos) << name;
    EXPECT_NO_THROW(parse_nvpmodel_conf(text)) << name;
  }
}

TEST(nvpmodel_conf, xavier_agx_user_mode_default_and_fan_config) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_xavier-agx_jetperf.conf");
  EXPECT_NE(text.find("\n< FAN_CONFIG DEFAULT=cool >\n"), std::string::npos);
  EXPECT_NE(text.find("\n< POWER_MODEL ID=8 NAME=MODE_MLPERF_V1_MAXQ >\n"), std::string::npos);
  EXPECT_NE(text.find("\n< PM_CONFIG DEFAULT=8 >\n"), std::string::npos);
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
  EXPECT_EQ(m->value("GPU", "MIN_FREQ"), std::string("318750000"));
  EXPECT_EQ(m->value("EMC", "MAX_FREQ"), std::string("1065600000"));
  EXPECT_EQ(m->value("CPU_ONLINE", "CORE_1"), std::string("1"));
  EXPECT_EQ(m->value("CPU_ONLINE", "CORE_2"), std::string("0"));
  EXPECT_EQ(m->value("CPU_ONLINE", "CORE_7"), std::string("0"));
  EXPECT_EQ(m->value("TPC_POWER_GATING", "TPC_PG_MASK"), std::string("5"));
  EXPECT_EQ(m->value("CPU_DENVER_0", "MAX_FREQ"), std::string("1200000"));
  EXPECT_FALSE(m->value("CPU_DENVER_1", "MAX_FREQ"));
  EXPECT_EQ(c.find_mode(2)->value("GPU", "MAX_FREQ"), std::string("670000000"));
  EXPECT_EQ(c.find_mode(2)->value("EMC", "MAX_FREQ"), std::string("1331200000"));
  EXPECT_EQ(c.find_mode(3)->value("GPU", "MAX_FREQ"), std::string("900000000"));
  EXPECT_EQ(c.find_mode(6)->value("CPU_DENVER_0", "MAX_FREQ"), std::string("2100000"));
  EXPECT_EQ(c.find_mode(8)->value("GPU", "MAX_FREQ"), std::string("675750000"));
  EXPECT_EQ(c.find_mode(8)->value("CPU_DENVER_0", "MIN_FREQ"), std::string("1190400"));
  EXPECT_EQ(c.find_mode(8)->value("DLA_CORE", "MAX_FREQ"), std::string("1050000000"));
  // CLOCK -1 is INT_MAX, as nvpmodel reads it.
  EXPECT_EQ(*c.find_mode(0)->value("GPU", "MAX_FREQ"), "-1");
  EXPECT_EQ(nvpmodel_clock_value(*c.find_mode(0)->value("GPU", "MAX_FREQ")), 2147483647LL);
  EXPECT_EQ(nvpmodel_clock_value(*c.find_mode(0)->value("CVNAS", "MAX_FREQ")), 2147483647LL);
  const auto* gpu = c.find_param("GPU");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->type, "CLOCK");
  EXPECT_EQ(path_of(c, "GPU", "MIN_FREQ"), "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b/min_freq");
  EXPECT_EQ(path_of(c, "DLA_CORE", "MAX_FREQ_KNEXT"), "/sys/kernel/nvpmodel_emc_cap/nafll_dla");
  // Carmel pairs: one CLOCK per pair, written through its first core.
  EXPECT_EQ(path_of(c, "CPU_DENVER_0", "MAX_FREQ"), "/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq");
  EXPECT_EQ(path_of(c, "CPU_DENVER_3", "MAX_FREQ"), "/sys/devices/system/cpu/cpu6/cpufreq/scaling_max_freq");
  EXPECT_EQ(c.find_param("CPU_DENVER_4"), nullptr);
  // Settings stay in file order: power control "on" before the GPU clock, "auto" after it.
  std::vector<std::string> order;
  for (const auto& s : m->settings)
    if (s.param.rfind("GPU", 0) == 0) order.push_back(s.param + " " + s.arg);
  EXPECT_EQ(order, (std::vector<std::string>{"GPU_POWER_CONTROL_ENABLE GPU_PWR_CNTL_EN", "GPU MIN_FREQ", "GPU MAX_FREQ",
                                             "GPU_POWER_CONTROL_DISABLE GPU_PWR_CNTL_DIS"}));
  EXPECT_EQ(reboot_reasons(c, 0, 1), (std::vector<std::string>{"TPC_PG_MASK 0 -> 5"}));
  EXPECT_TRUE(reboot_reasons(c, 0, 2).empty());
  EXPECT_TRUE(reboot_reasons(c, 1, 1).empty());
  EXPECT_TRUE(reboot_reasons(c, 0, 8).empty());
}

TEST(nvpmodel_conf, nano_wrapped_lines_double_spaces_and_user_mode) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_nano_jetperf.conf");
  // The quirks are in the file: two paths cut at column 80, values after two spaces.
  EXPECT_NE(text.find("\nFREQ_TABLE_KNEXT /sys/devices/system/cpu/cpu0/cpufreq/scaling_available_frequenc\nies\n"),
            std::string::npos);
  EXPECT_NE(text.find("\nFREQ_TABLE_KNEXT /sys/devices/17000000.gv11b/devfreq/devfreq0/available_frequenc\nies\n"),
            std::string::npos);
  EXPECT_NE(text.find("\nCPU_A57 MIN_FREQ  0\n"), std::string::npos);
  EXPECT_NE(text.find("\nGPU MIN_FREQ  0\n"), std::string::npos);
  auto c = parse_nvpmodel_conf(text);
  EXPECT_EQ(mode_names(c), (std::vector<std::string>{"0:MAXN", "1:5W", "2:7W"}));
  EXPECT_EQ(c.default_mode, 0);
  EXPECT_EQ(c.default_fan_mode, "");
  EXPECT_EQ(path_of(c, "CPU_A57", "FREQ_TABLE_KNEXT"), "/sys/devices/system/cpu/cpu0/cpufreq/scaling_available_frequencies");
  // As shipped for Nano: the KNEXT table names the Xavier GPU node.
  EXPECT_EQ(path_of(c, "GPU", "FREQ_TABLE_KNEXT"), "/sys/devices/17000000.gv11b/devfreq/devfreq0/available_frequencies");
  EXPECT_EQ(path_of(c, "GPU", "MAX_FREQ_KNEXT"), "/sys/devices/gpu.0/devfreq/57000000.gpu/max_freq");
  EXPECT_EQ(c.find_param("CPU_A57")->args.size(), 6u);
  EXPECT_EQ(c.find_param("GPU")->args.size(), 6u);
  // gm20b: the GPU devfreq node is 57000000.gpu under gpu.0.
  EXPECT_EQ(path_of(c, "GPU", "FREQ_TABLE"), "/sys/devices/gpu.0/devfreq/57000000.gpu/available_frequencies");
  EXPECT_EQ(c.find_mode(0)->value("CPU_A57", "MIN_FREQ"), std::string("0"));  // "MIN_FREQ  0"
  EXPECT_EQ(c.find_mode(0)->value("GPU", "MIN_FREQ"), std::string("0"));
  EXPECT_EQ(c.find_mode(0)->value("CPU_A57", "MAX_FREQ"), std::string("-1"));
  EXPECT_EQ(c.find_mode(1)->value("CPU_A57", "MAX_FREQ"), std::string("918000"));
  EXPECT_EQ(c.find_mode(1)->value("GPU", "MAX_FREQ"), std::string("640000000"));
  EXPECT_EQ(c.find_mode(1)->value("EMC", "MAX_FREQ"), std::string("1600000000"));
  EXPECT_EQ(c.find_mode(1)->value("CPU_ONLINE", "CORE_2"), std::string("0"));
  // The user-added 7W: four cores at the 5W caps.
  EXPECT_EQ(c.find_mode("7W")->value("CPU_ONLINE", "CORE_3"), std::string("1"));
  EXPECT_EQ(c.find_mode("7W")->value("GPU", "MAX_FREQ"), std::string("640000000"));
  EXPECT_TRUE(reboot_reasons(c, 0, 1).empty());  // no gating params on Nano
  // The wrapped file holds the same facts as the same file unwrapped.
  std::string unwrapped = text;
  for (auto pos = unwrapped.find("frequenc\nies"); pos != std::string::npos; pos = unwrapped.find("frequenc\nies"))
    unwrapped.erase(pos + 8, 1);
  EXPECT_EQ(facts(parse_nvpmodel_conf(unwrapped)), facts(c));
}

TEST(nvpmodel_conf, orin_nano_r36_missing_space_after_bracket_and_one_user_mode) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_orin-nano_jetperf.conf");
  EXPECT_NE(text.find("\n<PARAM TYPE=CLOCK NAME=EMC >\n"), std::string::npos);
  auto c = parse_nvpmodel_conf(text);
  EXPECT_EQ(mode_names(c), (std::vector<std::string>{"0:DYNAMIC_MODE"}));
  EXPECT_EQ(c.default_mode, 0);
  const auto* emc = c.find_param("EMC");
  ASSERT_NE(emc, nullptr);
  EXPECT_EQ(emc->type, "CLOCK");
  EXPECT_EQ(path_of(c, "EMC", "MAX_FREQ"), "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap");
  EXPECT_EQ(path_of(c, "EMC", "MAX_FREQ_KNEXT"), "/sys/kernel/nvpmodel_clk_cap/emc");
  EXPECT_EQ(path_of(c, "GPU", "MAX_FREQ_KNEXT"), "/sys/devices/platform/17000000.gpu/devfreq_dev/max_freq");
  EXPECT_EQ(path_of(c, "GPU", "MAX_FREQ"), "/sys/devices/17000000.ga10b/devfreq/17000000.ga10b/max_freq");
  EXPECT_EQ(path_of(c, "FBP_POWER_GATING", "FBP_PG_MASK_KNEXT"), "/sys/devices/platform/gpu.0/fbp_pg_mask");
  EXPECT_EQ(c.find_param("CPU_ONLINE")->args.size(), 6u);
  // One CLOCK per A78 core on this module.
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(path_of(c, "CPU_A78_" + std::to_string(i), "MAX_FREQ_KNEXT"),
              "/sys/devices/system/cpu/cpu" + std::to_string(i) + "/cpufreq/scaling_max_freq");
  }
  EXPECT_EQ(c.find_mode(0)->value("GPU", "MAX_FREQ"), std::string("306000000"));
  EXPECT_EQ(c.find_mode(0)->value("EMC", "MAX_FREQ"), std::string("3199000000"));
  EXPECT_EQ(c.find_mode(0)->value("CPU_A78_2", "MAX_FREQ"), std::string("518400"));
  EXPECT_FALSE(c.find_mode(0)->value("CPU_A78_3", "MAX_FREQ"));
  EXPECT_EQ(c.find_mode(0)->value("CPU_ONLINE", "CORE_3"), std::string("0"));
}

TEST(nvpmodel_conf, tx2_r32_modes_without_blank_lines) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_tx2_jetperf.conf");
  EXPECT_NE(text.find("/sys/devices/system/cpu/cpu5/online\n< PARAM TYPE=FILE"), std::string::npos);
  auto c = parse_nvpmodel_conf(text);
  EXPECT_EQ(mode_names(c), (std::vector<std::string>{"0:MAXN", "1:MAXQ", "2:MAXP_CORE_ALL", "3:MAXP_CORE_ARM"}));
  EXPECT_EQ(c.default_mode, 3);
  EXPECT_EQ(c.find_mode(1)->value("GPU", "MAX_FREQ"), std::string("850000000"));
  EXPECT_EQ(c.find_mode(1)->value("EMC", "MAX_FREQ"), std::string("1331200000"));
  EXPECT_EQ(c.find_mode(1)->value("CPU_A57", "MAX_FREQ"), std::string("1200000"));
  EXPECT_EQ(c.find_mode(2)->value("CPU_DENVER", "MAX_FREQ"), std::string("1400000"));
  EXPECT_EQ(c.find_mode(2)->value("GPU", "MAX_FREQ"), std::string("1120000000"));
  EXPECT_EQ(c.find_mode(3)->value("CPU_A57", "MAX_FREQ"), std::string("2000000"));
  // MAXP_CORE_ARM takes the two Denver cores offline and never touches cpu0.
  EXPECT_EQ(c.find_mode(3)->value("CPU_ONLINE", "CORE_1"), std::string("0"));
  EXPECT_EQ(c.find_mode(3)->value("CPU_ONLINE", "CORE_2"), std::string("0"));
  EXPECT_FALSE(c.find_mode(3)->value("CPU_ONLINE", "CORE_0"));
  EXPECT_FALSE(c.find_mode(3)->value("CPU_DENVER", "MAX_FREQ"));
  EXPECT_EQ(path_of(c, "CPU_A57", "MAX_FREQ"), "/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq");
  EXPECT_EQ(path_of(c, "CPU_DENVER", "MAX_FREQ"), "/sys/devices/system/cpu/cpu1/cpufreq/scaling_max_freq");
  EXPECT_EQ(path_of(c, "GPU", "MIN_FREQ"), "/sys/devices/17000000.gp10b/devfreq/17000000.gp10b/min_freq");
  EXPECT_EQ(path_of(c, "GPU", "MIN_FREQ_KNEXT"), "/sys/devices/17000000.gp10b/devfreq/devfreq0/min_freq");
}

TEST(nvpmodel_conf, xavier_nx_r32_7_hwmon_and_trailing_space) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_xavier-nx_jetperf.conf");
  EXPECT_NE(text.find("\n< PARAM TYPE=HWMON NAME=VDDIN_OC_LIMIT >\n"), std::string::npos);
  EXPECT_NE(text.find(" 576000000 \n"), std::string::npos);
  auto c = parse_nvpmodel_conf(text);
  EXPECT_EQ(mode_names(c), (std::vector<std::string>{"0:MODE_15W_2CORE", "1:MODE_15W_4CORE", "2:MODE_15W_6CORE",
                                                      "3:MODE_10W_2CORE", "4:MODE_10W_4CORE", "5:MODE_10W_DESKTOP",
                                                      "6:MODE_20W_2CORE", "7:MODE_20W_4CORE", "8:MODE_20W_6CORE"}));
  EXPECT_EQ(c.default_mode, 5);
  EXPECT_EQ(c.find_mode(5)->name, "MODE_10W_DESKTOP");
  EXPECT_EQ(c.find_mode(5)->value("GPU", "MAX_FREQ"), std::string("510000000"));
  EXPECT_EQ(c.find_mode(2)->value("GPU", "MAX_FREQ"), std::string("1109250000"));
  EXPECT_EQ(c.find_mode(4)->value("GPU", "MAX_FREQ"), std::string("803250000"));
  EXPECT_EQ(c.find_mode(8)->value("EMC", "MAX_FREQ"), std::string("1866000000"));
  EXPECT_EQ(c.find_mode(8)->value("CPU_DENVER_2", "MAX_FREQ"), std::string("1420800"));
  EXPECT_EQ(c.find_mode(6)->value("CVNAS", "MAX_FREQ"), std::string("576000000"));  // the trailing space
  const auto* oc = c.find_param("VDDIN_OC_LIMIT");
  ASSERT_NE(oc, nullptr);
  EXPECT_EQ(oc->type, "HWMON");
  ASSERT_NE(oc->find_arg("WARN"), nullptr);
  ASSERT_NE(oc->find_arg("CRIT"), nullptr);
  EXPECT_EQ(oc->find_arg("WARN")->path, "/sys/devices/platform/c250000.i2c/i2c-7/7-0040/hwmon");
  EXPECT_EQ(oc->find_arg("WARN")->attribute, "curr1_max");
  EXPECT_EQ(oc->find_arg("CRIT")->attribute, "curr1_crit");
  EXPECT_EQ(c.find_mode(0)->value("VDDIN_OC_LIMIT", "WARN"), std::string("3000"));
  EXPECT_EQ(c.find_mode(0)->value("VDDIN_OC_LIMIT", "CRIT"), std::string("5000"));
  EXPECT_EQ(c.find_mode(7)->value("VDDIN_OC_LIMIT", "WARN"), std::string("4000"));
  EXPECT_EQ(path_of(c, "GPU", "MAX_FREQ_KNEXT"), "/sys/devices/17000000.gv11b/devfreq_dev/max_freq");
  EXPECT_EQ(path_of(c, "CPU_DENVER_2", "MAX_FREQ"), "/sys/devices/system/cpu/cpu4/cpufreq/scaling_max_freq");
  EXPECT_TRUE(reboot_reasons(c, 0, 8).empty());  // every NX mode gates the same TPC
}

TEST(nvpmodel_conf, orin_agx_r35_clusters_and_gating) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_orin-agx_jetperf.conf");
  auto c = parse_nvpmodel_conf(text);
  EXPECT_EQ(mode_names(c), (std::vector<std::string>{"0:MAXN", "1:MODE_15W", "2:MODE_30W", "3:MODE_50W"}));
  EXPECT_EQ(c.default_mode, 2);
  EXPECT_EQ(c.find_param("CPU_ONLINE")->args.size(), 12u);
  EXPECT_EQ(path_of(c, "CPU_A78_1", "MIN_FREQ"), "/sys/devices/system/cpu/cpu4/cpufreq/scaling_min_freq");
  EXPECT_EQ(path_of(c, "CPU_A78_2", "MIN_FREQ"), "/sys/devices/system/cpu/cpu8/cpufreq/scaling_min_freq");
  EXPECT_EQ(path_of(c, "GPU", "MAX_FREQ"), "/sys/devices/17000000.ga10b/devfreq_dev/max_freq");
  EXPECT_EQ(c.find_mode(1)->value("GPU", "MAX_FREQ"), std::string("420750000"));
  EXPECT_EQ(c.find_mode(1)->value("EMC", "MAX_FREQ"), std::string("2133000000"));
  EXPECT_EQ(c.find_mode(2)->value("GPU", "MAX_FREQ"), std::string("624750000"));
  EXPECT_EQ(c.find_mode(3)->value("GPU", "MAX_FREQ"), std::string("828750000"));
  EXPECT_EQ(c.find_mode(3)->value("CPU_A78_2", "MAX_FREQ"), std::string("1497600"));
  EXPECT_EQ(c.find_mode(1)->value("CPU_ONLINE", "CORE_4"), std::string("0"));
  EXPECT_EQ(reboot_reasons(c, 0, 1), (std::vector<std::string>{"TPC_PG_MASK 0 -> 248"}));
  EXPECT_EQ(reboot_reasons(c, 1, 2), (std::vector<std::string>{"TPC_PG_MASK 248 -> 240"}));
  EXPECT_TRUE(reboot_reasons(c, 0, 3).empty());
}

// A copy from a terminal cuts every long line at its width, inside a word or at a space. Whatever
// the width, the parsed facts are those of the file as written.
TEST(nvpmodel_conf, terminal_wrapped_at_any_width_parses_like_the_original) {
  for (const char* name : k_confs) {
    JETPERF_LOAD_FIXTURE(text, name);
    const std::string expected = facts(parse_nvpmodel_conf(text));
    int cut = 0;
    for (std::size_t width = 20; width <= 120; ++width) {
      const std::string wrapped = wrap(text, width);
      if (wrapped == text) continue;
      ++cut;
      try {
        EXPECT_EQ(facts(parse_nvpmodel_conf(wrapped)), expected) << name << " at width " << width;
      } catch (const jetperf::platform_error& e) {
        ADD_FAILURE() << name << " at width " << width << ": " << e.what();
      }
    }
    EXPECT_GT(cut, 50) << name;  // every file has lines longer than most of these widths
  }
}

TEST(nvpmodel_conf, wrapped_setting_and_tag_lines) {
  const std::string text =
      "< PARAM TYPE=CLOCK NAME=GPU >\nMAX_FREQ /sys/devices/gpu/max_freq\n"
      "< POWER_MODEL ID=0\nNAME=MAXN >\nGPU MAX_FREQ\n-1\nGPU MAX_FR\nEQ 5\nGPU MAX_FREQ 16000\n00000\n"
      "< PM_CONFIG DEFAULT=0 >\n";
  auto c = parse_nvpmodel_conf(text);
  ASSERT_EQ(c.modes.size(), 1u);
  EXPECT_EQ(c.modes[0].name, "MAXN");
  ASSERT_EQ(c.modes[0].settings.size(), 3u);
  EXPECT_EQ(c.modes[0].settings[0].value, "-1");
  EXPECT_EQ(c.modes[0].settings[1].arg, "MAX_FREQ");
  EXPECT_EQ(c.modes[0].settings[1].value, "5");
  EXPECT_EQ(c.modes[0].settings[2].value, "1600000000");
}

TEST(nvpmodel_conf, wrapped_argument_names_paths_and_hwmon_attributes) {
  const std::string text =
      "< PARAM TYPE=CLOCK NAME=GPU >\n"
      "MAX_FREQ\n/sys/devices/gpu/max_freq\n"               // the path moved whole to the next line
      "MIN_FR\nEQ /sys/devices/gpu/min_freq\n"              // the name cut
      "FREQ_TABLE /sys/devices/gpu\n/available_frequencies\n"  // cut before a '/'
      "< PARAM TYPE=HWMON NAME=OC >\n"
      "WARN /sys/devices/i2c/7-0040/hw\nmon curr1_max\n"    // cut inside the directory
      "CRIT /sys/devices/i2c/7-0040/hwmon cur\nr1_crit\n"   // cut inside the attribute
      "INFO /sys/devices/i2c/7-0040/hwmon\ncurr2_max\n"     // cut at the space before it
      "< POWER_MODEL ID=0 NAME=A >\n# a comment cut by the terminal, whose\ntail lost its hash\n"
      "GPU MAX_FREQ 1\n< PM_CONFIG DEFAULT=0 >\n";
  auto c = parse_nvpmodel_conf(text);
  EXPECT_EQ(path_of(c, "GPU", "MAX_FREQ"), "/sys/devices/gpu/max_freq");
  EXPECT_EQ(path_of(c, "GPU", "MIN_FREQ"), "/sys/devices/gpu/min_freq");
  EXPECT_EQ(path_of(c, "GPU", "FREQ_TABLE"), "/sys/devices/gpu/available_frequencies");
  EXPECT_EQ(c.find_param("GPU")->args.size(), 3u);
  const auto* oc = c.find_param("OC");
  ASSERT_NE(oc, nullptr);
  ASSERT_EQ(oc->args.size(), 3u);
  EXPECT_EQ(oc->args[0].path, "/sys/devices/i2c/7-0040/hwmon");
  EXPECT_EQ(oc->args[0].attribute, "curr1_max");
  EXPECT_EQ(oc->args[1].attribute, "curr1_crit");
  EXPECT_EQ(oc->args[2].path, "/sys/devices/i2c/7-0040/hwmon");
  EXPECT_EQ(oc->args[2].attribute, "curr2_max");
  ASSERT_EQ(c.modes[0].settings.size(), 1u);
  EXPECT_EQ(c.modes[0].settings[0].value, "1");
}

TEST(nvpmodel_conf, malformed_input_is_a_platform_error_with_the_line) {
  const std::string ok_tail = "< POWER_MODEL ID=0 NAME=A >\nX Y 1\n< PM_CONFIG DEFAULT=0 >\n";
  EXPECT_THROW(parse_nvpmodel_conf("< POWER_MODEL ID=0 NAME=A >\nX Y 1\n"), jetperf::platform_error);  // no PM_CONFIG
  EXPECT_THROW(parse_nvpmodel_conf("< POWER_MODEL ID=0 NAME=A >\n< PM_CONFIG DEFAULT=3 >\n"), jetperf::platform_error);
  EXPECT_THROW(parse_nvpmodel_conf("< BOGUS X=1 >\n" + ok_tail), jetperf::platform_error);
  EXPECT_THROW(parse_nvpmodel_conf("< POWER_MODEL ID=x NAME=A >\n< PM_CONFIG DEFAULT=0 >\n"), jetperf::platform_error);
  EXPECT_THROW(parse_nvpmodel_conf("< PARAM TYPE=CLOCK NAME=GPU >\nMAX_FREQ /a /b /c\n" + ok_tail),
               jetperf::platform_error);
  EXPECT_THROW(parse_nvpmodel_conf(""), jetperf::platform_error);
  // A stray word after a clock value is not the wrapped tail of that number.
  EXPECT_THROW(parse_nvpmodel_conf("< POWER_MODEL ID=0 NAME=A >\nGPU MAX_FREQ 1600\nzzz\n< PM_CONFIG DEFAULT=0 >\n"),
               jetperf::platform_error);
  try {
    parse_nvpmodel_conf("stray text\n" + ok_tail);
    FAIL();
  } catch (const jetperf::platform_error& e) {
    EXPECT_NE(std::string(e.what()).find("line 1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(nvpmodel_clock_value("abc"), jetperf::platform_error);
  EXPECT_EQ(nvpmodel_clock_value("0"), 0);
}
