// The engines in a mapping's tegrastats aggregates, as seed 001's processed files hold them
// ("NVDEC": "off", "APE": 200.0), in tegrastats' order, between GR3D_FREQ and the temperatures.
#include <jetperf/kinds/multi_dnn/tegrastats_aggregates.hpp>

#include <gtest/gtest.h>

namespace jetperf::kinds {
namespace {

measure::channel_summary summary(const std::string& name, double min, double max, double mean) {
  measure::channel_summary s;
  s.name = name;
  s.unit = name.rfind("temp.", 0) == 0 ? "C" : "Hz";
  s.samples = 10;
  s.min = min, s.max = max, s.mean = mean;
  return s;
}

TEST(tegrastats_engines, gated_throughout_is_off_and_running_is_its_mean_mhz) {
  measure::power_summary w;
  int i = 0;
  for (const auto& s : {summary("clock.gpu", 604e6, 624e6, 607.86e6), summary("clock.ape", 200e6, 200e6, 200e6),
                        summary("clock.nvdec", 0, 0, 0), summary("clock.vic", 0, 729e6, 364.5e6),
                        summary("clock.nvjpg1", 0, 0, 0), summary("temp.tj", 60, 61, 60.19)})
    w.channels.emplace(i++, s);
  const auto out = tegrastats_aggregates(w, {});
  EXPECT_EQ(out.at("NVDEC"), cell("off"));
  EXPECT_EQ(out.at("NVJPG1"), cell("off"));
  EXPECT_EQ(out.at("VIC"), cell(364.5));
  EXPECT_EQ(out.at("APE"), cell(200.0));
  EXPECT_FALSE(out.contains("OFA"));  // not on this board
  std::vector<std::string> keys;
  for (const auto& [key, value] : out) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"GR3D_FREQ", "NVDEC", "NVJPG1", "VIC", "APE", "tj Temperature"}));
}

}  // namespace
}  // namespace jetperf::kinds
