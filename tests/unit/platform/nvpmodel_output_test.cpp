#include <jetperf/platform/nvpmodel_output.hpp>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <support/fixtures.hpp>

using namespace jetperf::platform;

TEST(nvpmodel_output, query_with_fan_mode) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_q_xavier-agx_r32.5_fan-cool.txt");
  auto q = parse_nvpmodel_query(text);
  EXPECT_EQ(q.mode_id, 0);
  EXPECT_EQ(q.mode_name, "MAXN");
  EXPECT_EQ(q.fan_mode, "cool");
  EXPECT_TRUE(q.warnings.empty());
}

TEST(nvpmodel_output, query_with_warning_line) {
  auto q = parse_nvpmodel_query("NVPM WARN: fan mode is not set!\nNV Power Mode: MODE_30W\n2\n");
  EXPECT_EQ(q.mode_id, 2);
  EXPECT_EQ(q.mode_name, "MODE_30W");
  EXPECT_EQ(q.warnings, (std::vector<std::string>{"fan mode is not set!"}));
  EXPECT_THROW(parse_nvpmodel_query("garbage\n"), jetperf::platform_error);
}

TEST(nvpmodel_output, query_verbose_values) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_q_verbose_grep-gpu-freq_xavier-agx_r32.txt");
  auto v = parse_nvpmodel_query_verbose(text);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].param, "GPU");
  EXPECT_EQ(v[1].arg, "MAX_FREQ");
  EXPECT_EQ(v[1].path, "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b/max_freq");
  EXPECT_EQ(v[1].real_value, "1377000000");
  EXPECT_EQ(v[1].conf_value, "2147483647");
  EXPECT_EQ(v[0].real_value, "318750000");
}

namespace {

// nvpmodel -p --verbose prints the conf it parsed, with -1 as INT_MAX. Every mode of the dump must
// be the conf's mode of that id, setting for setting in the same order, and every PARAM argument
// of the dump must have the conf's path.
void expect_dump_matches_conf(const nvpmodel_conf& dump, const nvpmodel_conf& conf) {
  ASSERT_FALSE(dump.modes.empty());
  for (const auto& m : dump.modes) {
    const nvpmodel_mode* c = conf.find_mode(m.id);
    ASSERT_NE(c, nullptr) << "mode " << m.id;
    EXPECT_EQ(c->name, m.name);
    ASSERT_EQ(c->settings.size(), m.settings.size()) << m.name;
    for (std::size_t i = 0; i < m.settings.size(); ++i) {
      const auto& d = m.settings[i];
      const auto& s = c->settings[i];
      EXPECT_EQ(s.param + " " + s.arg, d.param + " " + d.arg) << m.name;
      const nvpmodel_param* p = conf.find_param(s.param);
      ASSERT_NE(p, nullptr) << s.param;
      const std::string value = p->type == "CLOCK" ? std::to_string(nvpmodel_clock_value(s.value)) : s.value;
      EXPECT_EQ(value, d.value) << m.name << " " << d.param << " " << d.arg;
    }
  }
  for (const auto& dp : dump.params) {
    const nvpmodel_param* p = conf.find_param(dp.name);
    ASSERT_NE(p, nullptr) << dp.name;
    EXPECT_EQ(p->type, dp.type) << dp.name;
    for (const auto& a : dp.args) {
      ASSERT_NE(p->find_arg(a.name), nullptr) << dp.name << " " << a.name;
      EXPECT_EQ(p->find_arg(a.name)->path, a.path) << dp.name << " " << a.name;
    }
  }
}

}  // namespace

TEST(nvpmodel_output, dump_xavier_matches_its_conf) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_p_verbose_xavier-agx_t194.jtop-emulator.txt");
  JETPERF_LOAD_FIXTURE(conf_text, "nvpmodel_conf_xavier-agx_jetperf.conf");
  auto dump = parse_nvpmodel_dump(text);
  auto conf = parse_nvpmodel_conf(conf_text);
  // The dump is of the stock file (default MODE_15W, modes 0..6); the conf is the MLPerf copy,
  // whose user made the added mode 8 the default.
  EXPECT_EQ(dump.default_mode, 2);
  EXPECT_EQ(conf.default_mode, 8);
  ASSERT_EQ(dump.modes.size(), 7u);
  expect_dump_matches_conf(dump, conf);
  EXPECT_EQ(dump.find_mode(1)->value("GPU", "MAX_FREQ"), std::string("520000000"));
  EXPECT_EQ(dump.find_mode(1)->value("TPC_POWER_GATING", "TPC_PG_MASK"), std::string("5"));
  // -1 in the conf is printed as INT_MAX.
  EXPECT_EQ(dump.find_mode(0)->value("GPU", "MAX_FREQ"), std::string("2147483647"));
  EXPECT_EQ(nvpmodel_clock_value(*conf.find_mode(0)->value("GPU", "MAX_FREQ")), 2147483647LL);
  EXPECT_EQ(dump.find_param("GPU")->find_arg("FREQ_TABLE")->path,
            "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b/available_frequencies");
}

TEST(nvpmodel_output, dump_orin_and_nano) {
  JETPERF_LOAD_FIXTURE(orin, "nvpmodel_p_verbose_orin-agx_t234.jtop-emulator.txt");
  JETPERF_LOAD_FIXTURE(nano, "nvpmodel_p_verbose_nano_t210.jtop-emulator.txt");
  JETPERF_LOAD_FIXTURE(orin_conf, "nvpmodel_conf_orin-agx_jetperf.conf");
  JETPERF_LOAD_FIXTURE(nano_conf, "nvpmodel_conf_nano_jetperf.conf");
  auto o = parse_nvpmodel_dump(orin);
  EXPECT_EQ(o.default_mode, 2);
  ASSERT_EQ(o.modes.size(), 4u);
  EXPECT_EQ(o.modes[1].name, "MODE_15W");
  EXPECT_EQ(o.find_mode(1)->value("TPC_POWER_GATING", "TPC_PG_MASK"), std::string("248"));
  EXPECT_EQ(o.find_mode(3)->value("GPU", "MAX_FREQ"), std::string("828750000"));
  EXPECT_EQ(o.find_param("GPU")->find_arg("MAX_FREQ")->path, "/sys/devices/17000000.ga10b/devfreq_dev/max_freq");
  EXPECT_EQ(o.find_param("CPU_A78_2")->find_arg("MIN_FREQ")->path, "/sys/devices/system/cpu/cpu8/cpufreq/scaling_min_freq");
  auto oc = parse_nvpmodel_conf(orin_conf);
  EXPECT_EQ(oc.default_mode, o.default_mode);
  expect_dump_matches_conf(o, oc);
  auto n = parse_nvpmodel_dump(nano);
  EXPECT_EQ(n.default_mode, 0);
  ASSERT_EQ(n.modes.size(), 2u);
  EXPECT_EQ(n.modes[1].name, "5W");
  EXPECT_EQ(n.find_mode(1)->value("CPU_A57", "MAX_FREQ"), std::string("918000"));
  // The conf adds a user's mode 2 (7W), which the dump of a stock Nano does not have.
  auto nc = parse_nvpmodel_conf(nano_conf);
  EXPECT_EQ(nc.default_mode, n.default_mode);
  EXPECT_EQ(nc.modes.size(), 3u);
  expect_dump_matches_conf(n, nc);
}

TEST(nvpmodel_output, errors) {
  EXPECT_EQ(nvpmodel_errors("NVPM WARN: x\nNVPM ERROR: Error opening /sys/devices/gpu.0/fbp_pg_mask: 13\n"),
            (std::vector<std::string>{"Error opening /sys/devices/gpu.0/fbp_pg_mask: 13"}));
  EXPECT_TRUE(nvpmodel_errors("NV Power Mode: MAXN\n0\n").empty());
  EXPECT_THROW(parse_nvpmodel_dump("nothing"), jetperf::platform_error);
}
