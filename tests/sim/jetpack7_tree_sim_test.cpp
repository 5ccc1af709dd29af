// The JetPack 7 simulated boards write the trees the recorded layouts hold
// (tests/fixtures/layouts/thor_r39.layout, orin-agx_r39.layout): every file and link a layout
// lists is in the simulated tree, a number where the layout has a number and the same text
// where it has text (the release file's first line), and discovery over the tree finds what the
// layout's replay finds. (In tests/sim for its links: the tree, the parser and rail discovery
// together; no daemon runs.)
#include <cstdlib>
#include <ctime>
#include <regex>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include <jetperf/platform/board_discovery.hpp>
#include <jetperf/platform/board_info.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/sim/board_tree.hpp>
#include <jetperf/sim/rail_simulator.hpp>
#include <jetperf/sim/tegrastats_sampler.hpp>
#include <jetperf/tegrastats/tegrastats_parser.hpp>
#include <jetperf/telemetry/power_rails.hpp>
#include <support/fixtures.hpp>

#include <jetperf/sim/sim_board.hpp>
#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

using namespace jetperf;
using namespace jetperf::sim;

namespace {

sim_board make_board(const std::string& profile, const test::temp_dir& tmp) {
  sim_create_options o;
  o.tools_dir = test::sim_tools_dir();
  return sim_board::create(profile, tmp.path() + "/" + profile, o);
}

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '0') {
      out += '\0';
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

bool is_integer(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtoll(s.c_str(), &end, 10);
  return *end == '\0';
}

// Each `f`/`l` line of the layout checked against the simulated tree; returns the checked count.
int check_layout_paths(const std::string& layout_file, const platform::sysfs_root& root) {
  std::ifstream in(layout_file);
  EXPECT_TRUE(in.good()) << layout_file;
  int checked = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string op, path;
    words >> op >> path;
    if (op != "f" && op != "l") continue;
    ++checked;
    EXPECT_TRUE(root.exists(path)) << path << " (" << layout_file << ")";
    if (!root.exists(path)) continue;
    if (op == "l") continue;
    std::string value;
    std::getline(words, value);
    value = unescape(value.substr(value.empty() ? 0 : 1));
    const std::string ours = trimmed(root.read(path));
    if (is_integer(value)) {
      EXPECT_TRUE(is_integer(ours)) << path << ": '" << ours << "' where the layout has " << value;
    } else if (path == "/etc/nv_tegra_release") {
      EXPECT_EQ(ours.substr(0, ours.find('\n')), value) << path;
    } else {
      EXPECT_EQ(ours, value) << path;
    }
  }
  return checked;
}

}  // namespace

TEST(sim_jetpack7_tree, thor_holds_the_thor_r39_layout) {
  test::temp_dir tmp;
  auto board = make_board("thor", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  EXPECT_GT(check_layout_paths(test::fixtures_dir() + "/layouts/thor_r39.layout", root), 40);

  const auto info = platform::detect_board(root);
  EXPECT_EQ(info.family, "t264");
  EXPECT_EQ(info.module, "AGX Thor");
  EXPECT_EQ(info.l4t, "39.2.0");
  const auto d = platform::discover_board(root, info);
  ASSERT_TRUE(d.gpu.has_value());
  EXPECT_EQ(d.gpu->of_name, "gpu-gpc-0");
  // OpenRM's GPU: no nvgpu files at all.
  for (const char* f : {"/load", "/of_node/name", "/railgate_enable", "/enable_3d_scaling", "/device"})
    EXPECT_FALSE(root.exists(d.gpu->freq_dir + f)) << f;
  EXPECT_TRUE(d.emc.kind.empty()) << "no EMC control on the simulated Thor";

  const auto rails = telemetry::discover_rails(root);
  std::string names;
  for (const auto& r : rails) names += (names.empty() ? "" : " ") + r.name + "=" + r.role;
  EXPECT_EQ(names, "VDD_GPU=gpu VDD_CPU_SOC_MSS=cpu VIN_SYS_5V0=io VIN=total");
  const auto total = telemetry::input_rail_index(rails);
  ASSERT_TRUE(total.has_value());
  EXPECT_EQ(rails[*total].name, "VIN");
}

TEST(sim_jetpack7_tree, thor_ina238_reads_the_modelled_total_in_microwatts) {
  test::temp_dir tmp;
  auto board = make_board("thor", tmp);
  rail_simulator sim(board.profile(), board.paths().sysfs_root, rail_simulator_options{std::chrono::microseconds(19584), [] { return std::vector<double>{0.0}; }});
  sim.step(0.02);
  platform::sysfs_root root(board.paths().sysfs_root);
  const std::string dir = ina238_dir(board.profile().ina238.front());
  const long long uw = root.read_int(dir + "/power1_input");
  const long long mv = root.read_int(dir + "/in1_input");
  const long long ma = root.read_int(dir + "/curr1_input");
  EXPECT_EQ(uw, mv * ma);  // uW = mV x mA, as the driver's three files agree
  EXPECT_NEAR(mv, 20000, 200);
  // The total is VIN, and it is more than the module rails it feeds.
  EXPECT_NEAR(sim.total_mw(), static_cast<double>(uw) / 1000.0, 1e-6);
  double module = 0;
  for (const auto& [name, mw] : sim.rails_mw())
    if (name != "VIN") module += mw;
  EXPECT_GT(sim.total_mw(), module);
  EXPECT_GT(sim.total_mw(), 10000.0);  // an idle Thor devkit draws well over 10 W
}

TEST(sim_jetpack7_tree, orin_agx_jp7_holds_the_orin_agx_r39_layout) {
  test::temp_dir tmp;
  auto board = make_board("orin-agx-jp7", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  EXPECT_GT(check_layout_paths(test::fixtures_dir() + "/layouts/orin-agx_r39.layout", root), 40);
  const auto info = platform::detect_board(root);
  EXPECT_EQ(info.family, "t234");
  EXPECT_EQ(info.l4t, "39.2.0");
  const auto d = platform::discover_board(root, info);
  ASSERT_TRUE(d.gpu.has_value());
  EXPECT_EQ(d.gpu->of_name, "gpu");
  EXPECT_TRUE(root.exists(d.gpu->device_dir + "/load"));
  EXPECT_FALSE(root.exists(d.gpu->device_dir + "/enable_3d_scaling"));  // JetPack 7.2 (jtop PR #867)
  // The r36 board keeps its switch.
  test::temp_dir tmp36;
  auto r36 = make_board("orin-agx", tmp36);
  EXPECT_TRUE(platform::sysfs_root(r36.paths().sysfs_root).exists(r36.profile().gpu_device_dir + "/enable_3d_scaling"));
}

// The simulated tegrastats lines in the JetPack 7 forms docs/boards.md gives, read back by
// jetperf's own parser field by field.
TEST(sim_jetpack7_tegrastats, thor_line_has_vin_and_no_gpu_load) {
  test::temp_dir tmp;
  auto board = make_board("thor", tmp);
  rail_simulator sim(board.profile(), board.paths().sysfs_root, rail_simulator_options{std::chrono::microseconds(19584), [] { return std::vector<double>{0.0}; }});
  sim.step(0.02);
  tegrastats_sampler sampler(board.profile(), board.paths().sysfs_root);
  const std::string root_line = sampler.line(true, std::time(nullptr));
  const auto r = telemetry::parse_tegrastats_line(root_line);
  EXPECT_TRUE(r.unparsed.empty()) << root_line;
  EXPECT_FALSE(r.gpu_util_pct) << root_line;
  EXPECT_EQ(r.gpu_freq_mhz, (std::vector<double>{300, 300, 300})) << root_line;  // the 120W mode's floor
  EXPECT_FALSE(r.emc_freq_mhz) << root_line;
  ASSERT_EQ(r.cpus.size(), 14u) << root_line;
  std::string rails;
  for (const auto& rail : r.rails) rails += (rails.empty() ? "" : " ") + rail.name;
  EXPECT_EQ(rails, "VDD_GPU VDD_CPU_SOC_MSS VIN_SYS_5V0 VIN");
  ASSERT_EQ(r.rails.size(), 4u);
  EXPECT_TRUE(r.rails[3].max_mw.has_value()) << root_line;
  EXPECT_NEAR(r.rails[3].cur_mw, sim.total_mw(), 1.0);
  std::string zones;
  for (const auto& t : r.temps) zones += (zones.empty() ? "" : " ") + t.name;
  EXPECT_EQ(zones, "cpu tj soc012 soc345");  // no gpu@ while the GPU is gated (the real r38.4 lines)
  for (const auto& t : r.temps) EXPECT_TRUE(t.max_celsius.has_value()) << root_line;  // name@curC/maxC (r39.2)
  // Thor's engines as its real lines print them: a clock with no load, @0 while gated.
  EXPECT_NE(root_line.find(" NVENC0_FREQ @0 NVENC1_FREQ @0 NVDEC0_FREQ @0 NVDEC1_FREQ @0 NVJPG0_FREQ @0 VIC off "
                           "OFA_FREQ @0 PVA0_FREQ off APE 300 "),
            std::string::npos)
      << root_line;
  EXPECT_EQ(root_line.find("GR3D_FREQ", 0), root_line.find("GR3D_FREQ @["));
  // Not as root: no GR3D_FREQ at all (nothing but a clock to print, and only root reads it).
  EXPECT_EQ(sampler.line(false, std::time(nullptr)).find("GR3D_FREQ"), std::string::npos);
}

TEST(sim_jetpack7_tegrastats, orin_jp7_line_has_the_jetpack_7_2_form) {
  test::temp_dir tmp;
  auto board = make_board("orin-agx-jp7", tmp);
  rail_simulator sim(board.profile(), board.paths().sysfs_root, rail_simulator_options{std::chrono::microseconds(19584), [] { return std::vector<double>{0.0}; }});
  sim.step(0.02);
  tegrastats_sampler sampler(board.profile(), board.paths().sysfs_root);
  const std::string line = sampler.line(true, std::time(nullptr));
  // cpu@52.968C/52.968C and VDD_GPU_SOC 5139mW/5139mW/5139mW, engines off before APE, no SWAP.
  EXPECT_TRUE(std::regex_search(line, std::regex(R"( cpu@[0-9.]+C/[0-9.]+C soc2@)"))) << line;
  EXPECT_TRUE(std::regex_search(line, std::regex(R"( VDD_GPU_SOC \d+mW/\d+mW/\d+mW )"))) << line;
  EXPECT_TRUE(std::regex_search(line, std::regex(R"(GR3D_FREQ \d+%@\[\d+,\d+\] NVENC0 off .* PVA0_FREQ off APE 174 )"))) << line;
  EXPECT_EQ(line.find("SWAP"), std::string::npos) << line;
  EXPECT_EQ(line.find("VIC_FREQ"), std::string::npos) << line;
  const auto r = telemetry::parse_tegrastats_line(line);
  EXPECT_TRUE(r.unparsed.empty()) << line;
  ASSERT_EQ(r.temps.size(), 4u) << line;
  EXPECT_EQ(r.temps[0].name, "cpu");
  ASSERT_TRUE(r.temps[0].celsius.has_value()) << line;
  EXPECT_EQ(r.temps[0].max_celsius, r.temps[0].celsius) << line;
  ASSERT_EQ(r.rails.size(), 6u) << line;  // NC channels included, as tegrastats prints them
  EXPECT_TRUE(r.rails[0].max_mw.has_value());
}
