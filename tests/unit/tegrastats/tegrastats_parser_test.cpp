#include <jetperf/tegrastats/tegrastats_parser.hpp>
#include <tegrastats_json.hpp>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <tuple>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <support/fixtures.hpp>

namespace jetperf::telemetry {
namespace {

using opt = std::optional<double>;

const tegrastats_engine* engine(const tegrastats_record& r, const std::string& name) {
  for (const auto& x : r.engines)
    if (x.name == name) return &x;
  return nullptr;
}

// Every CPU as (util, freq); both empty for `off`.
void expect_cpus(const tegrastats_record& r, const std::vector<std::pair<opt, opt>>& want) {
  ASSERT_EQ(r.cpus.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.cpus[i].util_pct, want[i].first) << "cpu" << i;
    EXPECT_EQ(r.cpus[i].freq_mhz, want[i].second) << "cpu" << i;
  }
}

std::vector<std::pair<opt, opt>> same_cpus(std::size_t n, double util, double freq) {
  return std::vector<std::pair<opt, opt>>(n, {util, freq});
}

// Every temperature in line order, as (name, C); C empty for -256 (offline).
void expect_temps(const tegrastats_record& r, const std::vector<std::pair<std::string, opt>>& want) {
  ASSERT_EQ(r.temps.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.temps[i].name, want[i].first) << i;
    EXPECT_EQ(r.temps[i].celsius, want[i].second) << want[i].first;
  }
}

// Every rail in line order, as (name, cur mW, avg mW).
void expect_rails(const tegrastats_record& r, const std::vector<std::tuple<std::string, double, double>>& want) {
  ASSERT_EQ(r.rails.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.rails[i].name, std::get<0>(want[i])) << i;
    EXPECT_DOUBLE_EQ(r.rails[i].cur_mw, std::get<1>(want[i])) << std::get<0>(want[i]);
    EXPECT_DOUBLE_EQ(r.rails[i].avg_mw, std::get<2>(want[i])) << std::get<0>(want[i]);
    EXPECT_FALSE(r.rails[i].max_mw) << std::get<0>(want[i]);
  }
}

tegrastats_record fixture_record(const std::string& name) {
  const std::string line = test::fixture_line(name);
  EXPECT_FALSE(line.empty()) << "fixture " << name << " missing in " << test::fixtures_dir();
  tegrastats_record r;
  std::string error;
  EXPECT_TRUE(try_parse_tegrastats_line(line, r, error)) << name << ": " << error;
  EXPECT_TRUE(r.unparsed.empty()) << name << ": " << (r.unparsed.empty() ? "" : r.unparsed[0]);
  return r;
}

TEST(tegrastats_parser, every_fixture_line_parses_without_unparsed_fields) {
  const auto names = test::fixture_names("tegrastats_");
  EXPECT_GE(names.size(), 4u) << "tegrastats fixtures in " << test::fixtures_dir();
  std::size_t lines = 0;
  for (const auto& name : names) {
    std::ifstream in(test::fixtures_dir() + "/" + name);
    auto result = parse_tegrastats_stream(in);
    EXPECT_TRUE(result.errors.empty()) << name << ": " << (result.errors.empty() ? "" : result.errors[0].message);
    EXPECT_EQ(result.unparsed_fields, 0u) << name;
    EXPECT_GE(result.records.size(), 1u) << name;
    EXPECT_EQ(result.lines, result.records.size()) << name;
    lines += result.records.size();
  }
  EXPECT_GE(lines, 4u);
}

TEST(tegrastats_parser, orin_r36_fixture_field_by_field) {
  auto r = fixture_record("tegrastats_orin-agx-64gb_r36.txt");
  ASSERT_TRUE(r.timestamp);
  EXPECT_EQ(*r.timestamp, "04-11-2025 10:36:27");
  EXPECT_EQ(r.ram_used_mb, opt(4321));
  EXPECT_EQ(r.ram_total_mb, opt(62801));
  EXPECT_EQ(r.lfb_blocks, opt(1759));
  EXPECT_EQ(r.lfb_block_mb, opt(4));
  EXPECT_EQ(r.swap_used_mb, opt(19));
  EXPECT_EQ(r.swap_total_mb, opt(31400));
  EXPECT_EQ(r.swap_cached_mb, opt(0));
  EXPECT_FALSE(r.iram_total_kb);
  expect_cpus(r, same_cpus(12, 0, 729));
  EXPECT_EQ(r.emc_util_pct, opt(0));
  EXPECT_EQ(r.emc_freq_mhz, opt(2133));
  EXPECT_EQ(r.gpu_util_pct, opt(0));
  EXPECT_TRUE(r.gpu_per_gpc);
  EXPECT_EQ(r.gpu_freq_mhz, (std::vector<double>{0, 0}));
  ASSERT_EQ(r.engines.size(), 2u);
  EXPECT_EQ(r.engines[0].name, "VIC_FREQ");
  EXPECT_EQ(r.engines[0].freq_mhz, opt(729));
  EXPECT_EQ(r.engines[1].name, "APE");
  EXPECT_EQ(r.engines[1].freq_mhz, opt(174));
  EXPECT_FALSE(r.engines[1].util_pct);
  expect_temps(r, {{"CV0", {}},
                   {"CPU", 44.562},
                   {"Tboard", 32},
                   {"SOC2", 40.093},
                   {"Tdiode", 33},
                   {"SOC0", 41.093},
                   {"CV1", {}},
                   {"GPU", {}},
                   {"tj", 44.343},
                   {"SOC1", 41.25},
                   {"CV2", {}}});
  expect_rails(r, {{"VDD_GPU_SOC", 2340, 2340},
                   {"VDD_CPU_CV", 390, 390},
                   {"VIN_SYS_5V0", 4025, 4025},
                   {"NC", 0, 0},
                   {"VDDQ_VDD2_1V8AO", 301, 301},
                   {"NC", 0, 0}});
  auto j = client::tegrastats_record_json(r);
  EXPECT_EQ(j["timestamp"], "04-11-2025 10:36:27");
  EXPECT_EQ(j["gpu"]["freq_mhz"], nlohmann::json::array({0.0, 0.0}));
  EXPECT_DOUBLE_EQ(j["rails"]["VDD_GPU_SOC"]["cur_mw"].get<double>(), 2340);
  EXPECT_TRUE(j["rails"].contains("NC_2"));  // the second NC keeps its own key
  EXPECT_FALSE(j["rails"]["VDD_GPU_SOC"].contains("max_mw"));
  EXPECT_TRUE(j["temps"]["CV0"].is_null());
  EXPECT_DOUBLE_EQ(j["temps"]["tj"].get<double>(), 44.343);
  EXPECT_EQ(j["cpus"].size(), 12u);
  EXPECT_FALSE(j.contains("unparsed"));
}

TEST(tegrastats_parser, tx2_r32_fixture_field_by_field) {
  auto r = fixture_record("tegrastats_tx2_r32_nonroot.txt");
  EXPECT_FALSE(r.timestamp);
  EXPECT_EQ(r.ram_used_mb, opt(2020));
  EXPECT_EQ(r.ram_total_mb, opt(7852));
  EXPECT_EQ(r.lfb_blocks, opt(1164));
  EXPECT_EQ(r.lfb_block_mb, opt(4));
  EXPECT_FALSE(r.swap_total_mb);  // no swap line on this board
  expect_cpus(r, {{9, 345}, {21, 345}, {25, 345}, {3, 345}, {1, 345}, {1, 345}});
  EXPECT_EQ(r.emc_util_pct, opt(0));
  EXPECT_FALSE(r.emc_freq_mhz);  // non-root: no @freq
  EXPECT_EQ(r.gpu_util_pct, opt(0));
  EXPECT_TRUE(r.gpu_freq_mhz.empty());
  EXPECT_FALSE(r.gpu_per_gpc);
  EXPECT_TRUE(r.engines.empty());
  expect_temps(r, {{"PLL", 42.5},
                   {"MCPU", 42.5},
                   {"PMIC", 100},
                   {"Tboard", 40},
                   {"GPU", 41},
                   {"BCPU", 42.5},
                   {"thermal", 41.9},
                   {"Tdiode", 41.25}});
  expect_rails(r, {{"VDD_SYS_GPU", 153, 158},
                   {"VDD_SYS_SOC", 536, 547},
                   {"VDD_4V0_WIFI", 633, 527},
                   {"VDD_IN", 3140, 3208},
                   {"VDD_SYS_CPU", 536, 590},
                   {"VDD_SYS_DDR", 557, 601}});
  auto j = client::tegrastats_record_json(r);
  EXPECT_TRUE(j["gpu"]["freq_mhz"].is_null());
  EXPECT_FALSE(j.contains("timestamp"));
}

TEST(tegrastats_parser, nano_r32_fixture_field_by_field) {
  auto r = fixture_record("tegrastats_nano_r32_nonroot.txt");
  EXPECT_EQ(r.ram_used_mb, opt(1766));
  EXPECT_EQ(r.ram_total_mb, opt(3964));
  EXPECT_EQ(r.lfb_blocks, opt(197));
  EXPECT_EQ(r.lfb_block_mb, opt(4));
  EXPECT_EQ(r.swap_used_mb, opt(0));
  EXPECT_EQ(r.swap_total_mb, opt(2048));
  EXPECT_EQ(r.swap_cached_mb, opt(0));
  expect_cpus(r, {{24, 1224}, {15, 1224}, {13, 1224}, {10, 1224}});
  EXPECT_EQ(r.emc_util_pct, opt(0));
  EXPECT_FALSE(r.emc_freq_mhz);
  EXPECT_EQ(r.gpu_util_pct, opt(0));
  EXPECT_TRUE(r.gpu_freq_mhz.empty());
  expect_temps(r, {{"PLL", 21}, {"CPU", 25}, {"PMIC", 100}, {"GPU", 23.5}, {"AO", 33.5}, {"thermal", 24.5}});
  expect_rails(r, {{"POM_5V_IN", 2545, 2547}, {"POM_5V_GPU", 0, 0}, {"POM_5V_CPU", 549, 529}});
}

TEST(tegrastats_parser, xavier_r32_fixture_field_by_field) {
  auto r = fixture_record("tegrastats_xavier-agx_r32.1_nonroot.txt");
  EXPECT_EQ(r.ram_used_mb, opt(14700));
  EXPECT_EQ(r.ram_total_mb, opt(15692));
  EXPECT_EQ(r.lfb_blocks, opt(3));
  EXPECT_EQ(r.lfb_block_mb, opt(2));
  EXPECT_EQ(r.swap_used_mb, opt(898));
  EXPECT_EQ(r.swap_total_mb, opt(8192));
  EXPECT_EQ(r.swap_cached_mb, opt(23));
  expect_cpus(r, same_cpus(8, 0, 1190));
  EXPECT_EQ(r.emc_util_pct, opt(0));
  EXPECT_EQ(r.gpu_util_pct, opt(0));
  expect_temps(r, {{"AO", 30},
                   {"GPU", 30.5},
                   {"Tboard", 31},
                   {"Tdiode", 32},
                   {"AUX", 30.5},
                   {"CPU", 31.5},
                   {"thermal", 30.8},
                   {"PMIC", 100}});
  // "GPU 463/463" and "CPU 618/618" are rails, not the CPU list or a temperature.
  expect_rails(r, {{"GPU", 463, 463},
                   {"CPU", 618, 618},
                   {"SOC", 2936, 2936},
                   {"CV", 0, 0},
                   {"VDDRQ", 309, 309},
                   {"SYS5V", 3306, 3306}});
}

TEST(tegrastats_parser, r28_root_line_with_freqs_off_cores_and_mts) {
  auto r = parse_tegrastats_line(
      "RAM 1601/7854MB (lfb 1304x4MB) CPU [0%@2035,off,off,3%@2035,0%@2035,0%@2035] EMC_FREQ 0%@1866 "
      "GR3D_FREQ 0%@1300 APE 150 MTS fg 0% bg 2% BCPU@35C MCPU@35C GPU@33C PLL@35C Tboard@31C "
      "Tdiode@32.25C PMIC@100C thermal@34.2C VDD_IN 2152/2152 VDD_CPU 230/230 VDD_GPU 76/76 VDD_SOC "
      "460/460 VDD_WIFI 0/0 VDD_DDR 172/172");
  EXPECT_TRUE(r.unparsed.empty());
  EXPECT_DOUBLE_EQ(*r.emc_freq_mhz, 1866);
  EXPECT_DOUBLE_EQ(*r.emc_util_pct, 0);
  ASSERT_EQ(r.gpu_freq_mhz.size(), 1u);
  EXPECT_DOUBLE_EQ(r.gpu_freq_mhz[0], 1300);
  EXPECT_FALSE(r.gpu_per_gpc);
  expect_cpus(r, {{0, 2035}, {{}, {}}, {{}, {}}, {3, 2035}, {0, 2035}, {0, 2035}});
  auto j = client::tegrastats_record_json(r);
  EXPECT_TRUE(j["cpus"][1]["util_pct"].is_null());
  EXPECT_TRUE(j["cpus"][1]["freq_mhz"].is_null());
  EXPECT_DOUBLE_EQ(j["gpu"]["freq_mhz"].get<double>(), 1300);
  EXPECT_DOUBLE_EQ(j["emc"]["freq_mhz"].get<double>(), 1866);
  const tegrastats_engine* mts = engine(r, "MTS");
  ASSERT_NE(mts, nullptr);
  EXPECT_EQ(mts->fg_pct, opt(0));
  EXPECT_EQ(mts->bg_pct, opt(2));
  EXPECT_EQ(engine(r, "APE")->freq_mhz, opt(150));
  EXPECT_EQ(r.rails.size(), 6u);
}

TEST(tegrastats_parser, nano_root_line_with_iram_and_kb_lfb) {
  auto r = parse_tegrastats_line(
      "RAM 2140/3956MB (lfb 1x512kB) SWAP 0/1978MB (cached 0MB) IRAM 0/252kB(lfb 252kB) "
      "CPU [5%@1479,3%@1479,2%@1479,1%@1479] EMC_FREQ 3%@1600 GR3D_FREQ 0%@76 APE 25 PLL@30C CPU@32.5C "
      "PMIC@100C GPU@31C AO@38C thermal@31.75C POM_5V_IN 2000/2000 POM_5V_GPU 0/0 POM_5V_CPU 400/400");
  EXPECT_TRUE(r.unparsed.empty());
  EXPECT_DOUBLE_EQ(*r.lfb_blocks, 1);
  EXPECT_DOUBLE_EQ(*r.lfb_block_mb, 0.5);
  EXPECT_DOUBLE_EQ(*r.iram_used_kb, 0);
  EXPECT_DOUBLE_EQ(*r.iram_total_kb, 252);
  EXPECT_DOUBLE_EQ(*r.iram_lfb_kb, 252);
  EXPECT_DOUBLE_EQ(r.gpu_freq_mhz[0], 76);
  EXPECT_DOUBLE_EQ(*r.emc_util_pct, 3);
}

TEST(tegrastats_parser, old_cpu_form) {
  auto r = parse_tegrastats_line("RAM 1405/3983MB (lfb 429x4MB) cpu [48%,31%,off,23%]@1734 EMC_FREQ 5%@1600 GR3D_FREQ 0%@76");
  expect_cpus(r, {{48, 1734}, {31, 1734}, {{}, {}}, {23, 1734}});
  EXPECT_TRUE(r.unparsed.empty());
}

TEST(tegrastats_parser, jetpack5_gr3d2_is_a_second_gpc) {
  auto r = parse_tegrastats_line(
      "01-03-2023 16:10:22 RAM 2780/30536MB (lfb 6433x4MB) SWAP 0/15268MB (cached 0MB) "
      "CPU [1%@729,0%@729,0%@729,0%@729,0%@729,0%@729,0%@729,0%@729] EMC_FREQ 0%@2133 GR3D_FREQ 10%@306 "
      "GR3D2_FREQ 20%@408 VIC_FREQ 729 APE 174 CV0@-256C CPU@45.937C VDD_GPU_SOC 3066mW/3066mW NC 0mW/0mW");
  EXPECT_EQ(*r.timestamp, "01-03-2023 16:10:22");
  EXPECT_TRUE(r.gpu_per_gpc);
  EXPECT_EQ(r.gpu_freq_mhz, (std::vector<double>{306, 408}));
  EXPECT_DOUBLE_EQ(*r.gpu_util_pct, 15);
  EXPECT_EQ(client::tegrastats_record_json(r)["gpu"]["freq_mhz"], nlohmann::json::array({306.0, 408.0}));
  EXPECT_TRUE(r.unparsed.empty());
}

// README 7.1, JetPack 7 on Orin: lower-case zones with cur/max, rails with cur/avg/max, engines
// printed as `off`, the GPU as a per-GPC list.
TEST(tegrastats_parser, jetpack7_orin_line_field_by_field) {
  auto r = parse_tegrastats_line(
      "11-21-2025 10:00:00 RAM 3000/62000MB (lfb 10x4MB) SWAP 0/31000MB (cached 0MB) "
      "CPU [1%@1728,2%@1728,off,off] EMC_FREQ 1%@3199 GR3D_FREQ 12%@[1300,1300] NVENC0 off NVDEC0 off "
      "NVJPG0 off VIC off OFA off NVDLA0 off PVA0_FREQ off NVDEC 1152 cpu@45.5/47.2C soc0@40.2/41C "
      "soc1@39.8/40.5C soc2@40/41.2C gpu@-256/-256C VDD_GPU_SOC 2340mW/2300mW/4000mW "
      "VDD_CPU_CV 390mW/380mW/900mW VIN_SYS_5V0 4025mW/4000mW/6100mW");
  EXPECT_TRUE(r.unparsed.empty());
  EXPECT_EQ(*r.timestamp, "11-21-2025 10:00:00");
  EXPECT_EQ(r.ram_used_mb, opt(3000));
  EXPECT_EQ(r.ram_total_mb, opt(62000));
  EXPECT_EQ(r.swap_total_mb, opt(31000));
  expect_cpus(r, {{1, 1728}, {2, 1728}, {{}, {}}, {{}, {}}});
  EXPECT_EQ(r.emc_util_pct, opt(1));
  EXPECT_EQ(r.emc_freq_mhz, opt(3199));
  EXPECT_EQ(r.gpu_util_pct, opt(12));
  EXPECT_TRUE(r.gpu_per_gpc);
  EXPECT_EQ(r.gpu_freq_mhz, (std::vector<double>{1300, 1300}));
  ASSERT_EQ(r.engines.size(), 8u);
  const char* off[] = {"NVENC0", "NVDEC0", "NVJPG0", "VIC", "OFA", "NVDLA0", "PVA0_FREQ"};
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(r.engines[i].name, off[i]);
    EXPECT_FALSE(r.engines[i].freq_mhz) << off[i];
    EXPECT_FALSE(r.engines[i].util_pct) << off[i];
    EXPECT_TRUE(r.engines[i].freqs_mhz.empty()) << off[i];
  }
  EXPECT_EQ(r.engines[7].name, "NVDEC");
  EXPECT_EQ(r.engines[7].freq_mhz, opt(1152));
  expect_temps(r, {{"cpu", 45.5}, {"soc0", 40.2}, {"soc1", 39.8}, {"soc2", 40}, {"gpu", {}}});
  EXPECT_EQ(r.temps[0].max_celsius, opt(47.2));
  EXPECT_EQ(r.temps[1].max_celsius, opt(41));
  EXPECT_EQ(r.temps[3].max_celsius, opt(41.2));
  EXPECT_FALSE(r.temps[4].max_celsius);  // -256: offline
  ASSERT_EQ(r.rails.size(), 3u);
  EXPECT_EQ(r.rails[0].name, "VDD_GPU_SOC");
  EXPECT_DOUBLE_EQ(r.rails[0].cur_mw, 2340);
  EXPECT_DOUBLE_EQ(r.rails[0].avg_mw, 2300);
  EXPECT_EQ(r.rails[0].max_mw, opt(4000));
  EXPECT_DOUBLE_EQ(r.rails[1].cur_mw, 390);
  EXPECT_DOUBLE_EQ(r.rails[1].avg_mw, 380);
  EXPECT_EQ(r.rails[1].max_mw, opt(900));
  EXPECT_EQ(r.rails[2].name, "VIN_SYS_5V0");
  EXPECT_EQ(r.rails[2].max_mw, opt(6100));
  auto j = client::tegrastats_record_json(r);
  EXPECT_DOUBLE_EQ(j["rails"]["VDD_GPU_SOC"]["max_mw"].get<double>(), 4000);
  EXPECT_DOUBLE_EQ(j["temps"]["cpu"].get<double>(), 45.5);
  EXPECT_TRUE(j["temps"]["gpu"].is_null());
  EXPECT_TRUE(j["cpus"][3]["util_pct"].is_null());
}

// JetPack 7.2 on Orin writes the unit after both values (the form of the real line in jtop's
// jtop/tests/test_06_tegra_parse.py; values here are made up).
TEST(tegrastats_parser, jetpack7_2_temperatures_with_the_unit_twice) {
  auto r = parse_tegrastats_line("07-01-2026 10:00:00 RAM 2000/62000MB (lfb 3x2MB) cpu@50.5C/51.25C gpu@-256C/-256C "
                                 "VDD_GPU_SOC 4000mW/4100mW/4200mW");
  EXPECT_TRUE(r.unparsed.empty());
  expect_temps(r, {{"cpu", 50.5}, {"gpu", {}}});
  EXPECT_EQ(r.temps[0].max_celsius, opt(51.25));
  EXPECT_FALSE(r.temps[1].max_celsius);
  ASSERT_EQ(r.rails.size(), 1u);
  EXPECT_EQ(r.rails[0].max_mw, opt(4200));
  // A stray unit with nothing after it is not a temperature.
  EXPECT_FALSE(parse_tegrastats_line("RAM 2000/62000MB (lfb 3x2MB) cpu@50.5CC").unparsed.empty());
}

TEST(tegrastats_parser, thor_gpu_list_without_load) {
  auto r = parse_tegrastats_line(
      "RAM 5000/128000MB (lfb 2x4MB) CPU [1%@2600,3%@2600] EMC_FREQ 0%@4266 GR3D_FREQ @[1000,1000,1000] "
      "NVENC0 off cpu@50.1/52C VDD_GPU 5000mW/4900mW/9000mW");
  EXPECT_TRUE(r.unparsed.empty());
  EXPECT_FALSE(r.gpu_util_pct);
  EXPECT_TRUE(r.gpu_per_gpc);
  EXPECT_EQ(r.gpu_freq_mhz, (std::vector<double>{1000, 1000, 1000}));
  EXPECT_EQ(r.emc_freq_mhz, opt(4266));
  expect_cpus(r, {{1, 2600}, {3, 2600}});
  EXPECT_EQ(r.temps[0].max_celsius, opt(52));
  EXPECT_EQ(r.rails[0].max_mw, opt(9000));
  EXPECT_TRUE(client::tegrastats_record_json(r)["gpu"]["util_pct"].is_null());
}

// Any engine or cluster may print one frequency per cluster: `NAME l%@[f0,f1]`, `NAME @[f0,f1]`
// or `name@[f0,f1]`. The list is kept; freq_mhz is the highest.
TEST(tegrastats_parser, per_cluster_frequency_lists_on_any_engine) {
  auto r = parse_tegrastats_line(
      "RAM 1/2MB NVDLA0 35%@[1400,1369] PVA0_FREQ @[1100,1150] nvenc@[800,801] VIC 7%@115 GR3D2_FREQ 4%@[300,301] "
      "FOO 12%@[1,2]");
  EXPECT_TRUE(r.unparsed.empty()) << r.unparsed[0];
  const auto* dla = engine(r, "NVDLA0");
  ASSERT_NE(dla, nullptr);
  EXPECT_EQ(dla->util_pct, opt(35));
  EXPECT_EQ(dla->freqs_mhz, (std::vector<double>{1400, 1369}));
  EXPECT_EQ(dla->freq_mhz, opt(1400));
  const auto* pva = engine(r, "PVA0_FREQ");
  ASSERT_NE(pva, nullptr);
  EXPECT_FALSE(pva->util_pct);
  EXPECT_EQ(pva->freqs_mhz, (std::vector<double>{1100, 1150}));
  EXPECT_EQ(pva->freq_mhz, opt(1150));
  const auto* enc = engine(r, "nvenc");
  ASSERT_NE(enc, nullptr);
  EXPECT_EQ(enc->freqs_mhz, (std::vector<double>{800, 801}));
  const auto* vic = engine(r, "VIC");
  ASSERT_NE(vic, nullptr);
  EXPECT_EQ(vic->util_pct, opt(7));
  EXPECT_EQ(vic->freq_mhz, opt(115));
  EXPECT_TRUE(vic->freqs_mhz.empty());
  // A second GPC printed as a list joins the GPU's per-GPC list.
  EXPECT_TRUE(r.gpu_per_gpc);
  EXPECT_EQ(r.gpu_freq_mhz, (std::vector<double>{300, 301}));
  // An unknown name in a known form is an engine, not an unparsed field.
  const auto* foo = engine(r, "FOO");
  ASSERT_NE(foo, nullptr);
  EXPECT_EQ(foo->util_pct, opt(12));
  EXPECT_EQ(foo->freqs_mhz, (std::vector<double>{1, 2}));
}

// AGX Thor on JetPack 7.2 (a real r39.2 line, tests/fixtures/tegrastats_thor_r39.2.txt): six
// engines print a clock with no load (`NVENC0_FREQ @1556`), temperatures `name@cur/maxC`.
TEST(tegrastats_parser, thor_r39_2_fixture_field_by_field) {
  std::istringstream lines(test::fixture_text("tegrastats_thor_r39.2.txt"));
  std::string first, line;
  std::getline(lines, first);
  std::getline(lines, line);
  ASSERT_FALSE(line.empty()) << "tegrastats_thor_r39.2.txt has two lines";
  tegrastats_record r;
  std::string error;
  ASSERT_TRUE(try_parse_tegrastats_line(line, r, error)) << error;
  EXPECT_TRUE(r.unparsed.empty()) << (r.unparsed.empty() ? "" : r.unparsed[0]);
  EXPECT_EQ(*r.timestamp, "07-23-2026 15:29:27");
  EXPECT_EQ(r.cpus.size(), 14u);
  EXPECT_EQ(r.emc_freq_mhz, opt(3200));
  EXPECT_FALSE(r.gpu_util_pct);
  EXPECT_EQ(r.gpu_freq_mhz, (std::vector<double>{314, 314, 314}));
  ASSERT_EQ(r.engines.size(), 9u);
  const char* names[] = {"NVENC0_FREQ", "NVENC1_FREQ", "NVDEC0_FREQ", "NVDEC1_FREQ", "NVJPG0_FREQ",
                         "VIC",         "OFA_FREQ",    "PVA0_FREQ",   "APE"};
  for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(r.engines[i].name, names[i]);
  for (const char* at : {"NVENC0_FREQ", "NVENC1_FREQ", "NVDEC0_FREQ", "NVDEC1_FREQ", "NVJPG0_FREQ", "OFA_FREQ"}) {
    ASSERT_NE(engine(r, at), nullptr) << at;
    EXPECT_EQ(engine(r, at)->freq_mhz, opt(1556)) << at;
    EXPECT_FALSE(engine(r, at)->util_pct) << at;
    EXPECT_TRUE(engine(r, at)->freqs_mhz.empty()) << at;
  }
  EXPECT_EQ(engine(r, "VIC")->util_pct, opt(59));
  EXPECT_EQ(engine(r, "VIC")->freq_mhz, opt(423));
  EXPECT_FALSE(engine(r, "PVA0_FREQ")->freq_mhz);
  EXPECT_EQ(engine(r, "APE")->freq_mhz, opt(300));
  expect_temps(r, {{"cpu", 34.312}, {"tj", 35.906}, {"soc012", 34.093}, {"gpu", 35.906}, {"soc345", 34.437}});
  EXPECT_EQ(r.temps[0].max_celsius, opt(34.843));
  EXPECT_EQ(r.temps[2].max_celsius, opt(34.437));
  ASSERT_EQ(r.rails.size(), 3u);
  EXPECT_EQ(r.rails[1].name, "VDD_CPU_SOC_MSS");
  EXPECT_DOUBLE_EQ(r.rails[1].cur_mw, 7953);
  EXPECT_DOUBLE_EQ(r.rails[1].avg_mw, 8332);
  EXPECT_EQ(r.rails[1].max_mw, opt(8710));
  // The maximum is kept in every output form.
  const auto j = client::tegrastats_record_json(r);
  EXPECT_DOUBLE_EQ(j["temps"]["cpu"].get<double>(), 34.312);
  EXPECT_DOUBLE_EQ(j["temps_max"]["cpu"].get<double>(), 34.843);
  EXPECT_DOUBLE_EQ(j["engines"]["NVENC0_FREQ"]["freq_mhz"].get<double>(), 1556);
  const auto flat = flatten_tegrastats(r);
  EXPECT_NE(std::find(flat.begin(), flat.end(), std::pair<std::string, std::string>{"temps_max.cpu", "34.843"}), flat.end());
  EXPECT_NE(std::find(flat.begin(), flat.end(), std::pair<std::string, std::string>{"engines.OFA_FREQ.freq_mhz", "1556"}),
            flat.end());
}

// AGX Thor on JetPack 7.1 (real r38.4 lines): the same engines at `@0` while gated, one value per
// temperature, no `gpu@` while the GPU is gated.
TEST(tegrastats_parser, thor_r38_4_fixture_engines_at_zero) {
  const auto r = fixture_record("tegrastats_thor_r38.4.txt");
  for (const char* at : {"NVENC0_FREQ", "NVENC1_FREQ", "NVDEC0_FREQ", "NVDEC1_FREQ", "NVJPG0_FREQ", "OFA_FREQ"}) {
    ASSERT_NE(engine(r, at), nullptr) << at;
    EXPECT_EQ(engine(r, at)->freq_mhz, opt(0)) << at;
  }
  EXPECT_FALSE(engine(r, "VIC")->freq_mhz);
  expect_temps(r, {{"cpu", 34.468}, {"tj", 34.5}, {"soc012", 33.781}, {"soc345", 34.5}});
  for (const auto& t : r.temps) EXPECT_FALSE(t.max_celsius) << t.name;
  EXPECT_FALSE(client::tegrastats_record_json(r).contains("temps_max"));
  expect_rails(r, {{"VDD_GPU", 0, 0}, {"VDD_CPU_SOC_MSS", 4165, 4165}, {"VIN_SYS_5V0", 4126, 4126}});
}

// JetPack 7.2 on AGX Orin (real lines): a whole-degree `soc1@49C/49C`, engines `off`.
TEST(tegrastats_parser, orin_r39_2_fixtures_keep_every_maximum) {
  const auto r = fixture_record("tegrastats_orin-agx-64gb_r39.2.txt");
  expect_temps(r, {{"cpu", 50.718}, {"soc2", 47.656}, {"soc0", 47.156}, {"tj", 50.718}, {"soc1", 49}});
  EXPECT_EQ(r.temps[4].max_celsius, opt(49));
  expect_cpus(r, {{78, 1728}, {33, 1728}, {46, 1728}, {55, 1728}, {49, 729}, {48, 729}, {37, 729}, {57, 729},
                  {{}, {}}, {{}, {}}, {{}, {}}, {{}, {}}});
  const auto jtop = fixture_record("tegrastats_orin-agx_r39.2_jtop-test.txt");
  ASSERT_EQ(jtop.temps.size(), 4u);
  for (const auto& t : jtop.temps) EXPECT_EQ(t.max_celsius, t.celsius) << t.name;
  EXPECT_EQ(jtop.temps[0].max_celsius, opt(52.968));
}

// The `@f` form is a number after `@`: anything else there stays unparsed, with the rest read.
TEST(tegrastats_parser, engine_clock_without_load_must_be_a_number) {
  for (const char* bad : {"NVENC0_FREQ @", "NVENC0_FREQ @12x", "NVENC0_FREQ @@12", "NVENC0_FREQ @12%"}) {
    const auto r = parse_tegrastats_line(std::string("RAM 1/2MB ") + bad + " APE 300");
    ASSERT_EQ(r.unparsed.size(), 1u) << bad;
    EXPECT_EQ(r.unparsed[0], bad);
    EXPECT_EQ(engine(r, "NVENC0_FREQ"), nullptr) << bad;
    EXPECT_EQ(engine(r, "APE")->freq_mhz, opt(300)) << bad;
  }
  const auto ofa = parse_tegrastats_line("RAM 1/2MB OFA_FREQ @1556.5");
  ASSERT_NE(engine(ofa, "OFA_FREQ"), nullptr);
  EXPECT_EQ(engine(ofa, "OFA_FREQ")->freq_mhz, opt(1556.5));
}

TEST(tegrastats_parser, negative_temperature_and_engines_with_numbers) {
  auto r = parse_tegrastats_line("RAM 1/2MB NVENC 1152 NVDEC 716 NVJPG 0 MSENC 1152 Tboard@-5.5C");
  EXPECT_EQ(r.engines.size(), 4u);
  EXPECT_DOUBLE_EQ(*r.temps[0].celsius, -5.5);
}

// One field the parser does not know must not cost the line: everything around it is read, and
// the field is kept, as printed, in `unparsed`.
TEST(tegrastats_parser, unknown_fields_in_the_middle_are_kept_and_the_rest_parses) {
  auto r = parse_tegrastats_line(
      "RAM 2020/7852MB (lfb 1164x4MB) XYZ??? CPU [9%@345,off] FOO 12%@[1,2 EMC_FREQ 0%@1866 BAR [1,2] "
      "GR3D_FREQ 5%@1300 MTS fg 1% GPU@41C NEWTHING VDD_IN 3140/3208 (new 1x2) Tboard@40C");
  EXPECT_EQ(r.unparsed,
            (std::vector<std::string>{"XYZ???", "FOO 12%@[1,2", "BAR [1,2]", "MTS fg 1%", "NEWTHING", "(new 1x2)"}));
  EXPECT_EQ(r.ram_used_mb, opt(2020));
  EXPECT_EQ(r.lfb_blocks, opt(1164));
  expect_cpus(r, {{9, 345}, {{}, {}}});
  EXPECT_EQ(r.emc_freq_mhz, opt(1866));
  EXPECT_EQ(r.gpu_util_pct, opt(5));
  EXPECT_EQ(r.gpu_freq_mhz, (std::vector<double>{1300}));
  expect_temps(r, {{"GPU", 41}, {"Tboard", 40}});
  expect_rails(r, {{"VDD_IN", 3140, 3208}});
  EXPECT_TRUE(r.engines.empty());
  auto j = client::tegrastats_record_json(r);
  EXPECT_EQ(j["unparsed"], nlohmann::json::array({"XYZ???", "FOO 12%@[1,2", "BAR [1,2]", "MTS fg 1%", "NEWTHING",
                                                  "(new 1x2)"}));
  EXPECT_EQ(tegrastats_token_name(r.unparsed[0]), "XYZ");
  EXPECT_EQ(tegrastats_token_name(r.unparsed[1]), "FOO");
  EXPECT_EQ(tegrastats_token_name(r.unparsed[5]), "(new");
}

TEST(tegrastats_parser, bad_parts_of_known_fields_leave_the_good_parts) {
  // A (lfb ...) it cannot read: RAM still counts, the group is unparsed.
  auto r = parse_tegrastats_line("RAM 1/2MB (lfb 3x4GB) SWAP 5/6MB (cached 7GB) CPU [1%@100,2%@x] VDD_IN 1/2");
  EXPECT_EQ(r.ram_used_mb, opt(1));
  EXPECT_FALSE(r.lfb_blocks);
  EXPECT_EQ(r.swap_total_mb, opt(6));
  EXPECT_FALSE(r.swap_cached_mb);
  // A CPU list with one bad entry is not half-read.
  EXPECT_TRUE(r.cpus.empty());
  EXPECT_EQ(r.unparsed, (std::vector<std::string>{"(lfb 3x4GB)", "(cached 7GB)", "CPU [1%@100,2%@x]"}));
  // A half-valid load@freq writes neither half.
  auto e = parse_tegrastats_line("RAM 1/2MB EMC_FREQ 5%@x GR3D_FREQ 7%@[1,");
  EXPECT_FALSE(e.emc_util_pct);
  EXPECT_FALSE(e.gpu_util_pct);
  EXPECT_TRUE(e.gpu_freq_mhz.empty());
  EXPECT_EQ(e.unparsed, (std::vector<std::string>{"EMC_FREQ 5%@x", "GR3D_FREQ 7%@[1,"}));
}

TEST(tegrastats_parser, unparsed_text_is_printable_and_bounded) {
  auto r = parse_tegrastats_line(std::string("RAM 1/2MB X\xff\x01Y VDD_IN 1/2 ") + std::string(1000, 'Z') + "?");
  ASSERT_EQ(r.unparsed.size(), 2u);
  EXPECT_EQ(r.unparsed[0], "X\\xff\\x01Y");
  EXPECT_EQ(r.unparsed[1].size(), 200u);
  EXPECT_EQ(r.unparsed[1].substr(197), "...");
  EXPECT_NO_THROW(client::tegrastats_record_json(r).dump());
}

TEST(tegrastats_parser, a_line_is_an_error_only_when_nothing_parses) {
  std::istringstream in(
      "RAM 1/2MB CPU [1%@100]\n"
      "hello world\n"
      "\n"
      "RAM 3/4MB GR3D_FREQ 5%\n"
      "RAM 1/2MB EMC_FREQ x%\n"
      "04-11-2025 10:36:27 ???\n");
  auto result = parse_tegrastats_stream(in);
  ASSERT_EQ(result.records.size(), 3u);
  EXPECT_EQ(result.record_lines, (std::vector<std::size_t>{1, 4, 5}));
  EXPECT_EQ(result.records[2].unparsed, (std::vector<std::string>{"EMC_FREQ x%"}));
  ASSERT_EQ(result.errors.size(), 2u);
  EXPECT_EQ(result.errors[0].line, 2u);
  EXPECT_NE(result.errors[0].message.find("'hello'"), std::string::npos) << result.errors[0].message;
  EXPECT_EQ(result.errors[1].line, 6u);  // a timestamp alone is not a sample
  EXPECT_THROW(parse_tegrastats_line("CPU [1%@100"), validation_error);
  EXPECT_THROW(parse_tegrastats_line(""), validation_error);
  EXPECT_THROW(parse_tegrastats_line("RAM"), validation_error);
  EXPECT_THROW(parse_tegrastats_line("VDD_IN 1/"), validation_error);
  EXPECT_THROW(parse_tegrastats_line("XYZ??? FOO ??"), validation_error);
  EXPECT_NO_THROW(parse_tegrastats_line("RAM 1/2MB (lfb 3x4GB)"));
}

TEST(tegrastats_parser, stream_counts_lines_parsed_unparsed_and_errors) {
  std::istringstream in(
      "RAM 1/2MB XYZ??? CPU [1%@100]\n"
      "\n"
      "hello world\n"
      "RAM 3/4MB XYZ!!! BAR [1,2] GR3D_FREQ 5%\n"
      "RAM 5/6MB\n"
      "   \n");
  auto result = parse_tegrastats_stream(in);
  EXPECT_EQ(result.lines, 4u);
  EXPECT_EQ(result.records.size(), 3u);
  EXPECT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.unparsed_fields, 3u);
  using counts = std::vector<std::pair<std::string, std::uint64_t>>;
  EXPECT_EQ(result.unparsed_names.counts(), (counts{{"XYZ", 2}, {"BAR", 1}}));
  EXPECT_EQ(result.unparsed_names.untracked(), 0u);
  EXPECT_EQ(result.unparsed_names.total(), 3u);
}

TEST(tegrastats_parser, reused_record_drops_the_previous_lines_unparsed_fields) {
  tegrastats_record r;
  std::string error;
  ASSERT_TRUE(try_parse_tegrastats_line("RAM 1/2MB XYZ??? BAR [1] VDD_IN 1/2", r, error));
  EXPECT_EQ(r.unparsed.size(), 2u);
  ASSERT_TRUE(try_parse_tegrastats_line("RAM 1/2MB QQQ? VDD_IN 1/2", r, error));
  EXPECT_EQ(r.unparsed, (std::vector<std::string>{"QQQ?"}));
  ASSERT_TRUE(try_parse_tegrastats_line("RAM 1/2MB NVDLA0 1%@[3,4] VDD_IN 1/2", r, error));
  EXPECT_TRUE(r.unparsed.empty());
  ASSERT_TRUE(try_parse_tegrastats_line("RAM 1/2MB NVDLA0 5% VDD_IN 1/2", r, error));
  EXPECT_TRUE(r.engines[0].freqs_mhz.empty());  // the list of the line before is gone
  EXPECT_FALSE(client::tegrastats_record_json(r).contains("unparsed"));
}

TEST(tegrastats_parser, csv_flattening_with_dotted_columns) {
  std::vector<tegrastats_record> rs = {parse_tegrastats_line("RAM 1/2MB CPU [1%@100,off] VDD_IN 5/6"),
                                       parse_tegrastats_line("RAM 3/4MB CPU [2%@200,3%@300] Tboard@-256C")};
  std::ostringstream out;
  write_tegrastats_csv(rs, out);
  std::istringstream lines(out.str());
  std::string header, row1, row2;
  std::getline(lines, header);
  std::getline(lines, row1);
  std::getline(lines, row2);
  EXPECT_EQ(header,
            "ram.used_mb,ram.total_mb,cpus.0.util_pct,cpus.0.freq_mhz,cpus.1.util_pct,cpus.1.freq_mhz,"
            "emc.util_pct,emc.freq_mhz,gpu.util_pct,gpu.freq_mhz,rails.VDD_IN.cur_mw,rails.VDD_IN.avg_mw,"
            "temps.Tboard");
  EXPECT_EQ(row1, "1,2,1,100,,,,,,,5,6,");
  EXPECT_EQ(row2, "3,4,2,200,3,300,,,,,,,");
  std::ostringstream jl;
  client::write_tegrastats_jsonl(rs, jl);
  const std::string text = jl.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
}

TEST(tegrastats_parser, csv_has_one_unparsed_column_joined_by_semicolons) {
  std::vector<tegrastats_record> rs = {parse_tegrastats_line("RAM 1/2MB XYZ??? BAR [1,2]"),
                                       parse_tegrastats_line("RAM 3/4MB")};
  const auto flat = flatten_tegrastats(rs[0]);
  ASSERT_FALSE(flat.empty());
  EXPECT_EQ(flat.back(), (std::pair<std::string, std::string>{"unparsed", "XYZ???;BAR [1,2]"}));
  std::ostringstream out;
  write_tegrastats_csv(rs, out);
  std::istringstream lines(out.str());
  std::string header, row1, row2;
  std::getline(lines, header);
  std::getline(lines, row1);
  std::getline(lines, row2);
  EXPECT_EQ(header, "ram.used_mb,ram.total_mb,emc.util_pct,emc.freq_mhz,gpu.util_pct,gpu.freq_mhz,unparsed");
  EXPECT_EQ(row1, "1,2,,,,,\"XYZ???;BAR [1,2]\"");
  EXPECT_EQ(row2, "3,4,,,,,");
}

}  // namespace
}  // namespace jetperf::telemetry
