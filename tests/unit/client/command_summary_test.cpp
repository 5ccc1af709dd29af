// A command job's summary in `jetperf results` and `jetperf show`, through the tables the kind
// declares: per setting the runs' median
// wall time and energy, then each phase's mean time and energy per run.
#include <gtest/gtest.h>

#include <jetperf/kinds/command/command_columns.hpp>

#include "summary_view.hpp"

using nlohmann::json;

TEST(command_summary, lists_each_setting_and_each_phase_with_its_energy) {
  const json summary = {
      {"settings",
       {{{"setting", {{"cpu_freq_khz", 115200}, {"gpu_freq_hz", nullptr}}},
         {"runs", 3},
         {"wall_median_s", 3.79},
         {"energy_median_j", 24.8},
         {"phases", {{"busy", {{"runs", 3}, {"time_mean_s", 1.8}, {"energy_mean_j", 11.9}}}}}},
        {{"setting", {{"cpu_freq_khz", 2201600}}}, {"runs", 3}, {"wall_median_s", 3.6}, {"energy_median_j", 25.6}}}},
      {"points", {{"ok", 6}, {"skipped", 0}, {"failed", 0}}}};
  const auto text = jetperf::client::format_results_summary("command", summary, jetperf::kinds::command_summary_tables());
  EXPECT_NE(text.find("wall_median_s"), std::string::npos) << text;
  EXPECT_NE(text.find("cpu_freq_khz=115200 "), std::string::npos) << text;
  EXPECT_NE(text.find("24.8"), std::string::npos) << text;
  EXPECT_NE(text.find("phases (mean per run):"), std::string::npos) << text;
  EXPECT_NE(text.find("busy"), std::string::npos) << text;
  EXPECT_NE(text.find("11.9"), std::string::npos) << text;
  EXPECT_NE(text.find("points: 6 ok"), std::string::npos) << text;
  EXPECT_EQ(text.find("gpu_freq_hz"), std::string::npos) << "null settings are left out:\n" << text;
  const auto shown = jetperf::client::format_show_summary("command", summary, jetperf::kinds::command_summary_tables());
  EXPECT_NE(shown.find("  phases (mean per run):"), std::string::npos) << shown;
}
