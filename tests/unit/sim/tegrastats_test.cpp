// tegrastats lines of the simulated boards have the field layout of the real fixtures.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include <jetperf/sim/tegrastats_sampler.hpp>
#include <support/fixtures.hpp>

#include "sim_test_util.hpp"

using namespace jetperf;
using namespace jetperf::sim;

namespace {

// Field names in order, as a jtop-style parser sees them (README 7.1): keywords, temperature
// names (NAME@xC) and rail names (NAME cur/avg).
std::vector<std::string> layout(const std::string& line) {
  static const std::regex ts(R"(^\d+-\d+-\d+ \d+:\d+:\d+ )");
  static const std::regex temp(R"(^(\w+)@(-?[0-9.]+)C$)");
  static const std::regex rail(R"(^[0-9]+(mW)?/[0-9]+(mW)?$)");
  static const std::vector<std::string> keys = {"RAM", "SWAP", "IRAM", "CPU", "EMC_FREQ", "GR3D_FREQ",
                                                "VIC_FREQ", "APE", "MTS"};
  std::istringstream in(std::regex_replace(line, ts, ""));
  std::vector<std::string> tok{std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
  std::vector<std::string> out;
  std::smatch m;
  for (size_t i = 0; i < tok.size(); ++i) {
    if (std::find(keys.begin(), keys.end(), tok[i]) != keys.end()) out.push_back(tok[i]);
    else if (std::regex_match(tok[i], m, temp)) out.push_back(m[1].str() + "@");
    else if (i + 1 < tok.size() && std::regex_match(tok[i + 1], rail)) out.push_back(tok[i] + "/");
  }
  return out;
}

// Fixture field names as a set per kind; zone order differs between releases, so compare sorted.
std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

struct fixture_case {
  const char* profile;
  const char* fixture;
  bool root_form;
};

class sim_tegrastats : public ::testing::TestWithParam<fixture_case> {};

TEST_P(sim_tegrastats, layout_matches_fixture) {
  const auto& c = GetParam();
  const std::string real = test::fixture_line(c.fixture);
  ASSERT_FALSE(real.empty()) << "fixture " << c.fixture << " missing in " << test::fixtures_dir();
  test::temp_dir tmp;
  auto board = sim_testing::make_board(c.profile, tmp);
  rail_simulator sim(board.profile(), board.paths().sysfs_root);
  sim.step(0.02);
  tegrastats_sampler sampler(board.profile(), board.paths().sysfs_root);
  const std::string line = sampler.line(c.root_form, std::time(nullptr));
  // Same fields in the same order, except thermal zone order (the fixtures' boards list zones in
  // their own probe order): compare the non-zone sequence exactly and the zone names as sets.
  auto ours = layout(line), theirs = layout(real);
  auto strip = [](std::vector<std::string> v, bool zones) {
    std::vector<std::string> o;
    for (auto& s : v)
      if ((s.back() == '@') == zones) o.push_back(s);
    return o;
  };
  EXPECT_EQ(strip(ours, false), strip(theirs, false)) << line << "\n" << real;
  EXPECT_EQ(sorted(strip(ours, true)), sorted(strip(theirs, true))) << line << "\n" << real;
  // Unit and timestamp conventions of the release.
  const bool r36 = board.profile().rail_mw_suffix;
  EXPECT_EQ(std::regex_search(line, std::regex(R"(^\d\d-\d\d-\d{4} \d\d:\d\d:\d\d RAM )")), r36) << line;
  EXPECT_EQ(line.find("mW/") != std::string::npos, r36) << line;
  if (!c.root_form) {
    EXPECT_EQ(line.find("EMC_FREQ 0%@"), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(fixtures, sim_tegrastats,
                         ::testing::Values(fixture_case{"nano", "tegrastats_nano_r32_nonroot.txt", false},
                                           fixture_case{"tx2", "tegrastats_tx2_r32_nonroot.txt", false},
                                           fixture_case{"xavier-agx", "tegrastats_xavier-agx_r32.1_nonroot.txt", false},
                                           fixture_case{"orin-agx", "tegrastats_orin-agx-64gb_r36.txt", true}),
                         [](const auto& info) {
                           std::string n = info.param.profile;
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(sim_tegrastats_line, root_form_has_frequencies_and_offline_cores) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("tx2", tmp);  // default mode 3: Denver cores offline
  rail_simulator sim(board.profile(), board.paths().sysfs_root);
  sim.step(0.02);
  tegrastats_sampler sampler(board.profile(), board.paths().sysfs_root);
  const std::string line = sampler.line(true, std::time(nullptr));
  EXPECT_NE(line.find("CPU ["), std::string::npos);
  EXPECT_TRUE(std::regex_search(line, std::regex(R"(CPU \[\d+%@\d+,off,off,\d+%@\d+,)"))) << line;
  EXPECT_TRUE(std::regex_search(line, std::regex(R"(EMC_FREQ \d+%@\d+ GR3D_FREQ \d+%@\d+ APE 150 MTS fg)"))) << line;
  EXPECT_TRUE(std::regex_search(line, std::regex(R"(PMIC@100C)"))) << line;
  // Rail values are what the rail files hold.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(line, m, std::regex(R"(VDD_IN (\d+)/(\d+))")));
  EXPECT_GT(std::stoi(m[1].str()), 1000);
}

TEST(sim_tegrastats_program, start_stop_logfile_and_interval) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  const std::string log = tmp.path() + "/ts.log";
  auto r = sim_testing::run(board.paths().tegrastats_path, {"--interval", "50", "--logfile", log, "--start"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  EXPECT_EQ(sim_testing::run(board.paths().tegrastats_path, {"--stop"}).exit_code, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::ifstream in(log);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    EXPECT_TRUE(std::regex_search(line, std::regex(R"( GR3D_FREQ \d+%(@\[\d+,\d+\])? )"))) << line;
    EXPECT_NE(line.find("VDD_GPU_SOC "), std::string::npos) << line;
  }
  EXPECT_GE(n, 2);
  EXPECT_NE(sim_testing::run(board.paths().tegrastats_path, {"--interval", "x"}).exit_code, 0);
}

namespace {

// The engine fields of a root line: what lies between GR3D_FREQ's value and the first zone.
std::string engine_fields(const std::string& line) {
  std::smatch m;
  if (!std::regex_search(line, m, std::regex(R"(GR3D_FREQ \S+ (.*?) \w+@-?[0-9.]+C)"))) return "(none: " + line + ")";
  return m[1].str();
}

// Each zone as tegrastats prints it: its name, and "/max" where the maximum follows.
std::vector<std::string> zone_forms(const std::string& line) {
  std::vector<std::string> out;
  static const std::regex zone(R"( (\w+)@-?[0-9.]+C(/-?[0-9.]+C)?(?= |$))");
  for (std::sregex_iterator it(line.begin(), line.end(), zone), end; it != end; ++it)
    out.push_back((*it)[1].str() + ((*it)[2].matched ? "/max" : ""));
  return out;
}

std::string thor_line(const test::temp_dir& tmp) {
  auto board = sim_testing::make_board("thor", tmp);
  rail_simulator sim(board.profile(), board.paths().sysfs_root);
  sim.step(0.02);
  tegrastats_sampler sampler(board.profile(), board.paths().sysfs_root);
  return sampler.line(true, std::time(nullptr));
}

}  // namespace

// The simulated Thor prints its engines and temperatures as the real Thor lines do (tests/
// fixtures): the idle r38.4 line's engine fields to the character (its engines gated: `@0` for
// the six `NAME_FREQ` clocks, `VIC off`, `PVA0_FREQ off`, `APE 300`) and its zones (no `gpu@`
// while the GPU is gated), each with the maximum after it as the r39.2 lines print them.
TEST(sim_tegrastats_line, thor_engines_and_zones_in_the_real_lines_forms) {
  test::temp_dir tmp;
  const std::string line = thor_line(tmp);
  const std::string idle = test::fixture_line("tegrastats_thor_r38.4.txt");
  ASSERT_FALSE(idle.empty());
  EXPECT_EQ(engine_fields(line), engine_fields(idle)) << line << "\n" << idle;
  const auto with_max = [](const std::string& z) { return z.size() > 4 && z.compare(z.size() - 4, 4, "/max") == 0; };
  std::vector<std::string> names;
  for (const auto& z : zone_forms(line)) {
    EXPECT_TRUE(with_max(z)) << z << " in " << line;
    names.push_back(with_max(z) ? z.substr(0, z.size() - 4) : z);
  }
  EXPECT_EQ(names, zone_forms(idle)) << line << "\n" << idle;
  std::istringstream r39(test::fixture_text("tegrastats_thor_r39.2.txt"));
  std::string loaded;
  std::getline(r39, loaded);
  ASSERT_FALSE(zone_forms(loaded).empty());
  for (const auto& z : zone_forms(loaded)) EXPECT_TRUE(with_max(z)) << z << " in " << loaded;
}
