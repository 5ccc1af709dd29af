// The dnnstats layout to files: a job of one setting is one document as the daemon gives it; a
// job that sweeps settings is nested under their labels, and becomes one file per setting, each
// the seed's own layout (network -> device -> power/latency), layer keys in the daemon's order.
#include <gtest/gtest.h>

#include "dnnstats_export.hpp"

namespace jetperf::client {
namespace {

using nlohmann::ordered_json;

ordered_json network() {
  ordered_json layers = ordered_json::object();
  for (int i = 0; i < 12; ++i) layers[std::to_string(i)] = 0.001 * i;
  return {{"cpu", {{"power", {{"0", {{"VDD_CPU_CV", 900.0}}}}}, {"latency", layers}}}};
}

TEST(dnnstats_export, a_single_setting_is_not_nested_and_a_sweep_is) {
  const ordered_json flat = {{"resnet18", network()}, {"alexnet", network()}};
  EXPECT_FALSE(dnnstats_by_setting(flat));
  const ordered_json nested = {{"power_mode=0 cpu_freq_khz=729600", flat}, {"power_mode=2", flat}};
  EXPECT_TRUE(dnnstats_by_setting(nested));
  EXPECT_FALSE(dnnstats_by_setting(ordered_json::object()));
}

TEST(dnnstats_export, one_file_per_setting_each_the_seeds_layout_in_order) {
  const ordered_json flat = {{"resnet18", network()}};
  const ordered_json nested = {{"power_mode=0 cpu_freq_khz=729600", flat}, {"power_mode=2/x", flat}};
  const auto files = dnnstats_files(nested, "job-7");
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].first, "job-7-power_mode=0_cpu_freq_khz=729600.dnnstats.json");
  EXPECT_EQ(files[1].first, "job-7-power_mode=2_x.dnnstats.json");
  const auto doc = ordered_json::parse(files[0].second);
  EXPECT_EQ(doc, flat);
  std::vector<std::string> keys;
  for (const auto& item : doc["resnet18"]["cpu"]["latency"].items()) keys.push_back(item.key());
  ASSERT_EQ(keys.size(), 12u);
  EXPECT_EQ(keys[2], "2");
  EXPECT_EQ(keys[10], "10");
}

}  // namespace
}  // namespace jetperf::client
