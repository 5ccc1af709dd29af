#include <jetperf/telemetry/tegrastats_channels.hpp>
#include <jetperf/telemetry/tegrastats_sensor.hpp>

#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/tegrastats/tegrastats_parser.hpp>
#include <support/fixtures.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::telemetry {
namespace {

int find(const std::vector<channel_info>& ch, const std::string& name) {
  for (std::size_t i = 0; i < ch.size(); ++i)
    if (ch[i].name == name) return static_cast<int>(i);
  return -1;
}

TEST(tegrastats_channels, orin_line_computed_total_without_nc) {
  auto r = parse_tegrastats_line(
      "RAM 1/2MB CPU [0%@729,off] EMC_FREQ 0%@2133 GR3D_FREQ 5%@[300,400] CV0@-256C tj@44.343C PMIC@100C "
      "VDD_GPU_SOC 2340mW/2340mW VDD_CPU_CV 390mW/390mW NC 0mW/0mW");
  tegrastats_channels m(r);
  const auto& ch = m.channels();
  EXPECT_EQ(find(ch, "rail.NC"), -1);
  EXPECT_EQ(find(ch, "temp.PMIC"), -1);
  int total = find(ch, "power.total");
  ASSERT_GE(total, 0);
  EXPECT_EQ(m.total_power_channel(), total);
  std::vector<double> v(ch.size());
  m.values(r, v.data());
  EXPECT_NEAR(v[static_cast<std::size_t>(total)], 2.73, 1e-12);
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(find(ch, "clock.gpu"))], 400e6);
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(find(ch, "util.gpu"))], 5);
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(find(ch, "clock.emc"))], 2133e6);
  EXPECT_TRUE(std::isnan(v[static_cast<std::size_t>(find(ch, "temp.CV0"))]));
  EXPECT_TRUE(std::isnan(v[static_cast<std::size_t>(find(ch, "util.cpu1"))]));
}

// The engines as root prints them (seed 001's r35 Orin line; r36's VIC_FREQ; TX2's MTS): each
// engine's clock in Hz, 0 for `off` (as engine_sensor reads a gated clock); MTS is no clock.
TEST(tegrastats_channels, engines_are_clocks_and_off_is_zero) {
  auto r = parse_tegrastats_line(
      "RAM 1/2MB CPU [0%@729] EMC_FREQ 0%@2133 GR3D_FREQ 0%@[0,0] NVDEC off NVJPG off NVJPG1 off VIC off OFA off "
      "APE 200 MTS fg 0% bg 0% tj@44.343C VDD_IN 5000mW/5000mW");
  tegrastats_channels m(r);
  const auto& ch = m.channels();
  std::vector<double> v(ch.size());
  m.values(r, v.data());
  for (const char* off : {"clock.nvdec", "clock.nvjpg", "clock.nvjpg1", "clock.vic", "clock.ofa"}) {
    ASSERT_GE(find(ch, off), 0) << off;
    EXPECT_EQ(v[static_cast<std::size_t>(find(ch, off))], 0.0) << off;
    EXPECT_EQ(ch[static_cast<std::size_t>(find(ch, off))].unit, "Hz");
  }
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(find(ch, "clock.ape"))], 200e6);
  EXPECT_EQ(find(ch, "clock.mts"), -1);
  const auto r36 = parse_tegrastats_line("RAM 1/2MB CPU [0%@729] VIC_FREQ 729 APE 174 VDD_IN 5000mW/5000mW");
  tegrastats_channels m36(r36);
  std::vector<double> v36(m36.channels().size());
  m36.values(r36, v36.data());
  EXPECT_DOUBLE_EQ(v36[static_cast<std::size_t>(find(m36.channels(), "clock.vic"))], 729e6);
  EXPECT_DOUBLE_EQ(v36[static_cast<std::size_t>(find(m36.channels(), "clock.ape"))], 174e6);
}

// AGX Thor on JetPack 7.2 (the real r39.2 line of tests/fixtures): its `NAME_FREQ @f` engines are
// engine clocks like the others, and `name@cur/maxC` gives temp.NAME and temp_max.NAME.
TEST(tegrastats_channels, thor_engines_and_jetpack7_temperature_maxima) {
  std::istringstream lines(test::fixture_text("tegrastats_thor_r39.2.txt"));
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  const auto r = parse_tegrastats_line(second);
  ASSERT_TRUE(r.unparsed.empty()) << r.unparsed[0];
  tegrastats_channels m(r);
  const auto& ch = m.channels();
  std::vector<double> v(ch.size());
  m.values(r, v.data());
  const auto value = [&](const std::string& name) {
    const int i = find(ch, name);
    EXPECT_GE(i, 0) << name;
    return i < 0 ? std::nan("") : v[static_cast<std::size_t>(i)];
  };
  for (const char* clock : {"clock.nvenc0", "clock.nvenc1", "clock.nvdec0", "clock.nvdec1", "clock.nvjpg0", "clock.ofa"})
    EXPECT_DOUBLE_EQ(value(clock), 1556e6) << clock;
  EXPECT_DOUBLE_EQ(value("clock.vic"), 423e6);
  EXPECT_DOUBLE_EQ(value("clock.pva0"), 0.0);
  EXPECT_DOUBLE_EQ(value("clock.ape"), 300e6);
  EXPECT_DOUBLE_EQ(value("temp.cpu"), 34.312);
  EXPECT_DOUBLE_EQ(value("temp_max.cpu"), 34.843);
  EXPECT_DOUBLE_EQ(value("temp_max.soc012"), 34.437);
  const auto& max_cpu = ch[static_cast<std::size_t>(find(ch, "temp_max.cpu"))];
  EXPECT_EQ(max_cpu.unit, "C");
  // tegrastats' maximum since it started is no reading of now: no window takes it for one.
  EXPECT_EQ(max_cpu.kind, channel_kind::other);
  EXPECT_EQ(ch[static_cast<std::size_t>(find(ch, "temp.cpu"))].kind, channel_kind::temperature);
  // The idle r38.4 line: the engines at 0 Hz while gated, and no maximum printed, so none kept.
  const auto idle = parse_tegrastats_line(test::fixture_line("tegrastats_thor_r38.4.txt"));
  tegrastats_channels mi(idle);
  std::vector<double> vi(mi.channels().size());
  mi.values(idle, vi.data());
  EXPECT_DOUBLE_EQ(vi[static_cast<std::size_t>(find(mi.channels(), "clock.nvenc0"))], 0.0);
  EXPECT_EQ(find(mi.channels(), "temp_max.cpu"), -1);
  // A later line of the JetPack 7 form without a zone's maximum leaves that channel empty.
  const auto later = parse_tegrastats_line("RAM 1/2MB cpu@35C VDD_GPU 1mW/1mW/1mW");
  m.values(later, v.data());
  EXPECT_TRUE(std::isnan(v[static_cast<std::size_t>(find(ch, "temp_max.cpu"))]));
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(find(ch, "temp.cpu"))], 35.0);
}

TEST(tegrastats_channels, input_rail_is_total) {
  auto r = parse_tegrastats_line("RAM 1/2MB POM_5V_IN 2545/2547 POM_5V_GPU 0/0 POM_5V_CPU 549/529");
  tegrastats_channels m(r);
  EXPECT_EQ(find(m.channels(), "power.total"), -1);
  EXPECT_EQ(m.total_power_channel(), find(m.channels(), "rail.POM_5V_IN"));
}

TEST(tegrastats_sensor, runs_program_with_interval) {
  test::temp_dir t;
  std::string script = t.file("tegrastats");
  // The rail value echoes the --interval argument, proving the argument vector.
  test::write_file(script,
                   "#!/bin/sh\n"
                   "echo \"RAM 1/2MB CPU [5%@100] VDD_IN $2/$2 tj@40.5C\"\n"
                   "exec sleep 30\n");
  ::chmod(script.c_str(), 0755);
  tegrastats_sensor s(script, 250);
  auto ch = s.channels();
  int in = find(ch, "rail.VDD_IN");
  ASSERT_GE(in, 0);
  EXPECT_EQ(s.total_power_channel(), in);
  std::vector<double> v(ch.size());
  s.read(0, v.data());
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(in)], 0.25);
  EXPECT_DOUBLE_EQ(v[static_cast<std::size_t>(find(ch, "temp.tj"))], 40.5);
  s.read(1, v.data());  // no new line yet: no values
  EXPECT_TRUE(std::isnan(v[static_cast<std::size_t>(in)]));
  EXPECT_EQ(s.lines(), 1u);
}

// A newer tegrastats with a field the parser does not know: the line still feeds the sampler, and
// the unknown fields are counted (each name is logged once; tegrastats_unknown_tokens tests that).
TEST(tegrastats_sensor, unknown_fields_are_counted_and_the_line_is_used) {
  test::temp_dir t;
  std::string script = t.file("tegrastats");
  test::write_file(script,
                   "#!/bin/sh\n"
                   "echo \"RAM 1/2MB XYZ??? CPU [5%@100] NEWFIELD [1,2] VDD_IN 3000/3000 tj@40.5C\"\n"
                   "echo \"RAM 1/2MB XYZ??? CPU [5%@100] VDD_IN 4000/4000 tj@41C\"\n"
                   "exec sleep 30\n");
  ::chmod(script.c_str(), 0755);
  tegrastats_sensor s(script, 100);
  auto ch = s.channels();
  const int in = find(ch, "rail.VDD_IN");
  ASSERT_GE(in, 0);
  EXPECT_EQ(find(ch, "rail.NEWFIELD"), -1);
  std::vector<double> v(ch.size());
  s.read(0, v.data());
  // The line's known fields are used despite the unknown ones: VDD_IN of the first line, or of
  // the second when the reader thread has taken it already (both lines come at once; a loaded
  // machine may run the reader before this read).
  const double vdd_in = v[static_cast<std::size_t>(in)];
  EXPECT_TRUE(vdd_in == 3.0 || vdd_in == 4.0) << vdd_in;
  // The second line arrives on the reader thread.
  for (int i = 0; i < 200 && s.lines() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(s.lines(), 2u);
  EXPECT_EQ(s.parse_errors(), 0u);
  EXPECT_EQ(s.unparsed_fields(), 3u);
}

TEST(tegrastats_sensor, program_without_lines_is_unavailable) {
  test::temp_dir t;
  std::string script = t.file("tegrastats");
  test::write_file(script, "#!/bin/sh\necho garbage line\nexit 0\n");
  ::chmod(script.c_str(), 0755);
  EXPECT_THROW(tegrastats_sensor(script, 100, std::chrono::milliseconds(500)), unavailable);
}

}  // namespace
}  // namespace jetperf::telemetry
