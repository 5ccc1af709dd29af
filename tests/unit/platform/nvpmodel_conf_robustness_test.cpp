// Replays tricky inputs (the kind the libFuzzer targets in tests/fuzz find) through the
// nvpmodel.conf parser: each input must parse or throw platform_error.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/nvpmodel_conf.hpp>
#include <support/fixtures.hpp>

namespace jetperf::platform {
namespace {

std::vector<std::string> tricky_confs() {
  const std::string good = test::fixture_text("nvpmodel_conf_xavier-nx_jetperf.conf");
  EXPECT_FALSE(good.empty()) << "fixture nvpmodel_conf_xavier-nx_jetperf.conf missing in " << test::fixtures_dir();
  std::vector<std::string> v = {
      "", "<", "< PARAM", "< PARAM TYPE=", "< PARAM TYPE=CLOCK NAME=", "< POWER_MODEL ID=", "< POWER_MODEL ID=x NAME=a >",
      "< POWER_MODEL ID=99999999999999999999 NAME=a >", "< PM_CONFIG DEFAULT= >", "< PM_CONFIG DEFAULT=99999999999999999999 >",
      "< FAN_CONFIG DEFAULT= >", "GPU MAX_FREQ 1", "< POWER_MODEL ID=0 NAME=a >\nGPU", "< POWER_MODEL ID=0 NAME=a >\nGPU MAX_FREQ",
      "< PARAM TYPE=HWMON NAME=X >\nWARN", "< PARAM TYPE=HWMON NAME=X >\nWARN /a", "===", ">>>", "<<<>>>",
      std::string("< PARAM TYPE=FILE NAME=A\0 >", 27), std::string(3, '\0'), std::string(100000, '<'),
      "\xff\xfe< PM_CONFIG DEFAULT=0 >",
  };
  // Every prefix of a real conf file (a truncated copy), at a stride to keep the test short.
  for (std::size_t n = 0; n < good.size(); n += 7) v.push_back(good.substr(0, n));
  if (!good.empty()) v.push_back(good);
  return v;
}

TEST(NvpmodelConfRobustness, TrickyConfsParseOrThrowPlatformError) {
  std::size_t parsed = 0, rejected = 0;
  for (const auto& text : tricky_confs()) {
    try {
      auto conf = parse_nvpmodel_conf(text);
      ++parsed;
      for (const auto& m : conf.modes) {
        for (const auto& s : m.settings) {
          try {
            (void)nvpmodel_clock_value(s.value);
          } catch (const platform_error&) {
          }
        }
      }
    } catch (const platform_error&) {
      ++rejected;
    }
  }
  // The whole fixture parses; truncations and the junk above are rejected.
  EXPECT_GT(parsed, 0u);
  EXPECT_GT(rejected, 20u);
  for (const char* bad : {"< POWER_MODEL ID=x NAME=a >", "< PM_CONFIG DEFAULT= >"}) {
    EXPECT_THROW(parse_nvpmodel_conf(bad), platform_error) << bad;
  }
}

}  // namespace
}  // namespace jetperf::platform
