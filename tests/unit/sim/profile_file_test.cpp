// Simulated boards from a profile file (issue 55 item 3): every built-in profile written out and
// read back is the same board, and a file that could not be a board is refused naming the field.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/sim/profile_file.hpp>

#include "sim_test_util.hpp"

using namespace jetperf;
using namespace jetperf::sim;
using nlohmann::ordered_json;

namespace {

ordered_json written(const std::string& name) { return ordered_json::parse(profile_json_text(find_profile(name))); }

// The field a refusal names, or "" when the text is accepted.
std::string refused_field(const ordered_json& doc) {
  try {
    profile_from_json_text(doc.dump());
  } catch (const validation_error& e) {
    return e.field();
  }
  return "";
}

}  // namespace

TEST(profile_file, every_built_in_profile_reads_back_as_itself) {
  for (const auto& p : board_profiles()) {
    const auto text = profile_json_text(p);
    const auto back = profile_from_json_text(text);
    EXPECT_EQ(profile_json_text(back), text) << p.name;
    EXPECT_EQ(back.name, p.name);
    EXPECT_EQ(back.core_count(), p.core_count()) << p.name;
    EXPECT_EQ(back.gpu_freqs_hz, p.gpu_freqs_hz) << p.name;
    EXPECT_EQ(back.emc_freqs_hz, p.emc_freqs_hz) << p.name;
    EXPECT_EQ(back.modes.size(), p.modes.size()) << p.name;
    EXPECT_EQ(back.sensor.period_us, p.sensor.period_us) << p.name;
    EXPECT_DOUBLE_EQ(back.power.cpu_core_max_mw, p.power.cpu_core_max_mw) << p.name;
    ASSERT_EQ(back.ina.size(), p.ina.size()) << p.name;
    for (std::size_t i = 0; i < p.ina.size(); ++i)
      for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_EQ(back.ina[i].channels[k].label, p.ina[i].channels[k].label);
        EXPECT_EQ(back.ina[i].channels[k].kind, p.ina[i].channels[k].kind);
      }
  }
}

TEST(profile_file, the_tegrastats_line_s_quirks_travel_with_the_file) {
  const auto& thor = find_profile("thor");
  const auto back = profile_from_json_text(profile_json_text(thor));
  EXPECT_EQ(back.engines_at_freq, thor.engines_at_freq);
  EXPECT_FALSE(back.engines_at_freq.empty());
  EXPECT_EQ(back.omit_offline_zones, thor.omit_offline_zones);
  EXPECT_EQ(back.engines_off, thor.engines_off);
  EXPECT_EQ(back.ina238.size(), 1u);
}

TEST(profile_file, the_sensors_are_plain_fields_per_chip) {
  auto doc = written("orin-nano");
  EXPECT_DOUBLE_EQ(doc["sensor"]["update_period_ms"].get<double>(), 19.584);
  EXPECT_DOUBLE_EQ(doc["sensor"]["lag_ms"].get<double>(), 0.0);
  EXPECT_TRUE(doc["sensor"].contains("noise_mw"));
  EXPECT_TRUE(doc["ina"][0]["sensor"].is_null());  // the board's
  EXPECT_EQ(doc["ina"][0]["channels"][0]["label"], "VDD_IN");
  EXPECT_EQ(doc["ina"][0]["channels"][0]["kind"], "input");
  doc["ina"][0]["sensor"] = {{"update_period_ms", 7.3}, {"lag_ms", 2.5}, {"noise_mw", 12.0}, {"noise_fraction", 0.0}};
  const auto p = profile_from_json_text(doc.dump());
  const auto& t = p.timing_of(p.ina[0]);
  EXPECT_EQ(t.period_us, 7300);
  EXPECT_EQ(t.lag_us, 2500);
  EXPECT_DOUBLE_EQ(t.noise_mw, 12.0);
  EXPECT_DOUBLE_EQ(t.delay_s(), 2.5e-3);
  EXPECT_DOUBLE_EQ(t.lag_s(), 2.5e-3 + 7.3e-3 / 2);
}

TEST(profile_file, a_file_that_could_not_be_a_board_is_refused_naming_the_field) {
  const auto base = written("orin-agx");
  auto doc = base;
  doc["sensor"]["update_period_ms"] = 0;
  EXPECT_EQ(refused_field(doc), "sensor.update_period_ms");
  doc = base;
  doc["ina"][1]["sensor"] = {{"update_period_ms", 20}, {"lag_ms", -1}};
  EXPECT_EQ(refused_field(doc), "ina[1].sensor.lag_ms");
  doc = base;
  doc["ina"][0]["channels"].erase(2);
  EXPECT_EQ(refused_field(doc), "ina[0].channels");
  doc = base;
  doc["ina"][0]["channels"][1]["kind"] = "gpu_and_more";
  EXPECT_EQ(refused_field(doc), "ina[0].channels[1].kind");
  doc = base;
  doc["default_mode"] = 42;
  EXPECT_EQ(refused_field(doc), "default_mode");
  doc = base;
  doc["modes"][0]["online"] = {0, 1, 99};
  EXPECT_EQ(refused_field(doc), "modes[0].online");
  doc = base;
  doc["gpu_freqs_hz"] = {900000000, 300000000};
  EXPECT_EQ(refused_field(doc), "gpu_freqs_hz");
  doc = base;
  doc["clusters"][0]["cores"] = {0, 1, 1, 3};
  EXPECT_EQ(refused_field(doc), "clusters[0].cores");
  doc = base;
  doc["power"]["input_efficiency"] = 1.5;
  EXPECT_EQ(refused_field(doc), "power.input_efficiency");
  // A typo is not a default: an unknown key is refused, nested ones by their path.
  doc = base;
  doc["power"]["cpu_core_max_w"] = 1;
  EXPECT_EQ(refused_field(doc), "power.cpu_core_max_w");
  doc = base;
  doc["name"] = "Orin AGX";
  EXPECT_EQ(refused_field(doc), "name");
  doc = base;
  doc["l4t_major"] = "36";
  EXPECT_EQ(refused_field(doc), "l4t_major");
  EXPECT_THROW(profile_from_json_text("{not json"), validation_error);
}

TEST(profile_file, a_board_made_from_a_file_keeps_it_for_the_simulators_programs) {
  // The nvpmodel and tegrastats programs read the board directory's profile.json, not a name.
  test::temp_dir tmp;
  auto p = profile_from_json_text(profile_json_text(find_profile("orin-nano")));
  p.name = "my-nano";
  p.modes[0].name = "12W";
  sim_create_options o;
  o.tools_dir = test::sim_tools_dir();
  auto board = sim_board::create(p, tmp.path() + "/my-nano", o);
  EXPECT_EQ(board.profile().name, "my-nano");
  EXPECT_EQ(board.layout().profile().modes[0].name, "12W");
  const auto out = sim_testing::run(board.paths().nvpmodel_path, {"-p", "--verbose"});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("12W"), std::string::npos) << out.out;
}
