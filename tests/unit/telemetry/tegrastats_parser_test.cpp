#include <jetperf/telemetry/tegrastats_parser.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <support/fixtures.hpp>

namespace jetperf::telemetry {
namespace {

std::string fixture_line(const std::string& name) {
  const auto text = test::fixture_text(name);
  return text.substr(0, text.find('\n'));
}

#define FIXTURE_OR_SKIP(var, name)                                     \
  std::string var = fixture_line(name);                                \
  if (var.empty()) GTEST_SKIP() << "fixture " << name << " not found in " << test::fixtures_dir()

const tegrastats_rail* rail(const tegrastats_record& r, const std::string& name) {
  for (const auto& x : r.rails)
    if (x.name == name) return &x;
  return nullptr;
}

TEST(tegrastats_parser, every_fixture_line_parses) {
  if (!std::filesystem::exists(test::fixtures_dir())) GTEST_SKIP() << "no fixtures dir " << test::fixtures_dir();
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(test::fixtures_dir())) {
    std::string name = e.path().filename().string();
    if (name.rfind("tegrastats_", 0) != 0) continue;
    std::ifstream in(e.path());
    auto result = parse_tegrastats_stream(in);
    EXPECT_TRUE(result.errors.empty()) << name << ": " << (result.errors.empty() ? "" : result.errors[0].message);
    EXPECT_GE(result.records.size(), 1u) << name;
    ++files;
  }
  EXPECT_GE(files, 4);
}

TEST(tegrastats_parser, orin_r36_fixture) {
  FIXTURE_OR_SKIP(line, "tegrastats_orin-agx-64gb_r36.txt");
  auto r = parse_tegrastats_line(line);
  ASSERT_TRUE(r.timestamp);
  EXPECT_EQ(*r.timestamp, "04-11-2025 10:36:27");
  EXPECT_EQ(r.cpus.size(), 12u);
  EXPECT_DOUBLE_EQ(*r.cpus[11].freq_mhz, 729);
  EXPECT_DOUBLE_EQ(*r.ram_used_mb, 4321);
  EXPECT_DOUBLE_EQ(*r.ram_total_mb, 62801);
  EXPECT_DOUBLE_EQ(*r.lfb_blocks, 1759);
  EXPECT_DOUBLE_EQ(*r.swap_total_mb, 31400);
  EXPECT_DOUBLE_EQ(*r.emc_freq_mhz, 2133);
  EXPECT_TRUE(r.gpu_per_gpc);
  EXPECT_EQ(r.gpu_freq_mhz, (std::vector<double>{0, 0}));
  auto j = to_json(r);
  EXPECT_EQ(j["gpu"]["freq_mhz"], nlohmann::json::array({0.0, 0.0}));
  EXPECT_DOUBLE_EQ(j["rails"]["VDD_GPU_SOC"]["cur_mw"].get<double>(), 2340);
  EXPECT_DOUBLE_EQ(j["rails"]["VIN_SYS_5V0"]["avg_mw"].get<double>(), 4025);
  EXPECT_TRUE(j["rails"].contains("NC_2"));
  EXPECT_FALSE(j["rails"]["VDD_GPU_SOC"].contains("max_mw"));
  EXPECT_TRUE(j["temps"]["CV0"].is_null());
  EXPECT_TRUE(j["temps"]["GPU"].is_null());
  EXPECT_DOUBLE_EQ(j["temps"]["tj"].get<double>(), 44.343);
  EXPECT_DOUBLE_EQ(j["temps"]["CPU"].get<double>(), 44.562);
  EXPECT_EQ(j["cpus"].size(), 12u);
  EXPECT_EQ(j["timestamp"], "04-11-2025 10:36:27");
  ASSERT_EQ(r.engines.size(), 2u);
  EXPECT_EQ(r.engines[0].name, "VIC_FREQ");
  EXPECT_DOUBLE_EQ(*r.engines[1].freq_mhz, 174);
}

TEST(tegrastats_parser, tx2_r32_fixture) {
  FIXTURE_OR_SKIP(line, "tegrastats_tx2_r32_nonroot.txt");
  auto r = parse_tegrastats_line(line);
  EXPECT_FALSE(r.timestamp);
  EXPECT_EQ(r.cpus.size(), 6u);
  const auto* in = rail(r, "VDD_IN");
  ASSERT_NE(in, nullptr);
  EXPECT_DOUBLE_EQ(in->cur_mw, 3140);
  EXPECT_DOUBLE_EQ(in->avg_mw, 3208);
  EXPECT_EQ(r.rails.size(), 6u);
  EXPECT_DOUBLE_EQ(*r.emc_util_pct, 0);
  EXPECT_FALSE(r.emc_freq_mhz);  // non-root: no @freq
  EXPECT_TRUE(r.gpu_freq_mhz.empty());
  EXPECT_FALSE(r.swap_total_mb);
  auto j = to_json(r);
  EXPECT_TRUE(j["gpu"]["freq_mhz"].is_null());
  EXPECT_FALSE(j.contains("timestamp"));
  EXPECT_DOUBLE_EQ(j["temps"]["thermal"].get<double>(), 41.9);
}

TEST(tegrastats_parser, nano_r32_fixture) {
  FIXTURE_OR_SKIP(line, "tegrastats_nano_r32_nonroot.txt");
  auto r = parse_tegrastats_line(line);
  EXPECT_DOUBLE_EQ(rail(r, "POM_5V_IN")->cur_mw, 2545);
  EXPECT_DOUBLE_EQ(rail(r, "POM_5V_CPU")->avg_mw, 529);
  EXPECT_EQ(r.cpus.size(), 4u);
  EXPECT_DOUBLE_EQ(*r.cpus[0].util_pct, 24);
  EXPECT_DOUBLE_EQ(*r.cpus[0].freq_mhz, 1224);
  EXPECT_DOUBLE_EQ(*r.swap_cached_mb, 0);
  EXPECT_DOUBLE_EQ(to_json(r)["temps"]["GPU"].get<double>(), 23.5);
}

TEST(tegrastats_parser, xavier_r32_fixture) {
  FIXTURE_OR_SKIP(line, "tegrastats_xavier-agx_r32.1_nonroot.txt");
  auto r = parse_tegrastats_line(line);
  EXPECT_EQ(r.cpus.size(), 8u);
  // "GPU 463/463" and "CPU 618/618" are rails, not the CPU list or a temperature.
  EXPECT_DOUBLE_EQ(rail(r, "GPU")->cur_mw, 463);
  EXPECT_DOUBLE_EQ(rail(r, "GPU")->avg_mw, 463);
  EXPECT_DOUBLE_EQ(rail(r, "CPU")->cur_mw, 618);
  EXPECT_DOUBLE_EQ(rail(r, "SYS5V")->cur_mw, 3306);
  EXPECT_DOUBLE_EQ(*r.lfb_block_mb, 2);
  EXPECT_DOUBLE_EQ(*r.swap_cached_mb, 23);
  EXPECT_DOUBLE_EQ(to_json(r)["temps"]["GPU"].get<double>(), 30.5);
}

TEST(tegrastats_parser, r28_root_line_with_freqs_off_cores_and_mts) {
  auto r = parse_tegrastats_line(
      "RAM 1601/7854MB (lfb 1304x4MB) CPU [0%@2035,off,off,3%@2035,0%@2035,0%@2035] EMC_FREQ 0%@1866 "
      "GR3D_FREQ 0%@1300 APE 150 MTS fg 0% bg 2% BCPU@35C MCPU@35C GPU@33C PLL@35C Tboard@31C "
      "Tdiode@32.25C PMIC@100C thermal@34.2C VDD_IN 2152/2152 VDD_CPU 230/230 VDD_GPU 76/76 VDD_SOC "
      "460/460 VDD_WIFI 0/0 VDD_DDR 172/172");
  EXPECT_DOUBLE_EQ(*r.emc_freq_mhz, 1866);
  EXPECT_DOUBLE_EQ(*r.emc_util_pct, 0);
  ASSERT_EQ(r.gpu_freq_mhz.size(), 1u);
  EXPECT_DOUBLE_EQ(r.gpu_freq_mhz[0], 1300);
  EXPECT_FALSE(r.gpu_per_gpc);
  EXPECT_FALSE(r.cpus[1].util_pct);
  EXPECT_FALSE(r.cpus[2].freq_mhz);
  EXPECT_DOUBLE_EQ(*r.cpus[3].util_pct, 3);
  auto j = to_json(r);
  EXPECT_TRUE(j["cpus"][1]["util_pct"].is_null());
  EXPECT_TRUE(j["cpus"][1]["freq_mhz"].is_null());
  EXPECT_DOUBLE_EQ(j["gpu"]["freq_mhz"].get<double>(), 1300);
  EXPECT_DOUBLE_EQ(j["emc"]["freq_mhz"].get<double>(), 1866);
  const tegrastats_engine* mts = nullptr;
  for (const auto& e : r.engines)
    if (e.name == "MTS") mts = &e;
  ASSERT_NE(mts, nullptr);
  EXPECT_DOUBLE_EQ(*mts->bg_pct, 2);
  EXPECT_EQ(r.rails.size(), 6u);
}

TEST(tegrastats_parser, nano_root_line_with_iram_and_kb_lfb) {
  auto r = parse_tegrastats_line(
      "RAM 2140/3956MB (lfb 1x512kB) SWAP 0/1978MB (cached 0MB) IRAM 0/252kB(lfb 252kB) "
      "CPU [5%@1479,3%@1479,2%@1479,1%@1479] EMC_FREQ 3%@1600 GR3D_FREQ 0%@76 APE 25 PLL@30C CPU@32.5C "
      "PMIC@100C GPU@31C AO@38C thermal@31.75C POM_5V_IN 2000/2000 POM_5V_GPU 0/0 POM_5V_CPU 400/400");
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
  ASSERT_EQ(r.cpus.size(), 4u);
  EXPECT_DOUBLE_EQ(*r.cpus[0].util_pct, 48);
  EXPECT_DOUBLE_EQ(*r.cpus[3].freq_mhz, 1734);
  EXPECT_FALSE(r.cpus[2].util_pct);
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
  EXPECT_EQ(to_json(r)["gpu"]["freq_mhz"], nlohmann::json::array({306.0, 408.0}));
}

TEST(tegrastats_parser, jetpack7_cur_avg_max_and_off_engines) {
  auto r = parse_tegrastats_line(
      "11-21-2025 10:00:00 RAM 3000/62000MB (lfb 10x4MB) SWAP 0/31000MB (cached 0MB) "
      "CPU [1%@1728,2%@1728,off,off] EMC_FREQ 1%@3199 GR3D_FREQ 12%@[1300,1300] NVENC0 off NVDEC0 off "
      "NVJPG0 off VIC off OFA off NVDLA0 off PVA0_FREQ off NVDEC 1152 cpu@45.5/46.1C soc0@40.2/41C "
      "gpu@-256/-256C VDD_GPU_SOC 2340mW/2300mW/4000mW VDD_CPU_CV 390mW/380mW/900mW");
  EXPECT_DOUBLE_EQ(*r.gpu_util_pct, 12);
  EXPECT_EQ(r.gpu_freq_mhz, (std::vector<double>{1300, 1300}));
  ASSERT_EQ(r.engines.size(), 8u);
  EXPECT_EQ(r.engines[0].name, "NVENC0");
  EXPECT_FALSE(r.engines[0].freq_mhz);
  EXPECT_DOUBLE_EQ(*r.engines[7].freq_mhz, 1152);
  auto j = to_json(r);
  EXPECT_DOUBLE_EQ(j["rails"]["VDD_GPU_SOC"]["max_mw"].get<double>(), 4000);
  EXPECT_DOUBLE_EQ(j["rails"]["VDD_CPU_CV"]["avg_mw"].get<double>(), 380);
  EXPECT_DOUBLE_EQ(j["temps"]["cpu"].get<double>(), 45.5);
  EXPECT_TRUE(j["temps"]["gpu"].is_null());
  EXPECT_DOUBLE_EQ(*r.temps[0].max_celsius, 46.1);
  EXPECT_TRUE(j["cpus"][3]["util_pct"].is_null());
}

TEST(tegrastats_parser, thor_like_gpu_without_load) {
  auto r = parse_tegrastats_line("RAM 5000/128000MB (lfb 2x4MB) CPU [1%@2600] GR3D_FREQ @[1000,1000,1000]");
  EXPECT_FALSE(r.gpu_util_pct);
  EXPECT_EQ(r.gpu_freq_mhz.size(), 3u);
  EXPECT_TRUE(to_json(r)["gpu"]["util_pct"].is_null());
}

TEST(tegrastats_parser, negative_temperature_and_engines_with_numbers) {
  auto r = parse_tegrastats_line("RAM 1/2MB NVENC 1152 NVDEC 716 NVJPG 0 MSENC 1152 Tboard@-5.5C");
  EXPECT_EQ(r.engines.size(), 4u);
  EXPECT_DOUBLE_EQ(*r.temps[0].celsius, -5.5);
}

TEST(tegrastats_parser, garbage_is_an_error_with_line_number) {
  std::istringstream in(
      "RAM 1/2MB CPU [1%@100]\n"
      "hello world\n"
      "\n"
      "RAM 3/4MB GR3D_FREQ 5%\n"
      "RAM 1/2MB EMC_FREQ x%\n");
  auto result = parse_tegrastats_stream(in);
  ASSERT_EQ(result.records.size(), 2u);
  EXPECT_EQ(result.record_lines, (std::vector<std::size_t>{1, 4}));
  ASSERT_EQ(result.errors.size(), 2u);
  EXPECT_EQ(result.errors[0].line, 2u);
  EXPECT_NE(result.errors[0].message.find("hello"), std::string::npos);
  EXPECT_EQ(result.errors[1].line, 5u);
  EXPECT_THROW(parse_tegrastats_line("CPU [1%@100"), validation_error);
  EXPECT_THROW(parse_tegrastats_line(""), validation_error);
  EXPECT_THROW(parse_tegrastats_line("RAM"), validation_error);
  EXPECT_THROW(parse_tegrastats_line("RAM 1/2MB (lfb 3x4GB)"), validation_error);
  EXPECT_THROW(parse_tegrastats_line("VDD_IN 1/"), validation_error);
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
  write_tegrastats_jsonl(rs, jl);
  const std::string text = jl.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
}

}  // namespace
}  // namespace jetperf::telemetry
