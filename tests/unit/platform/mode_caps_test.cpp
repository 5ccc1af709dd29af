// A power mode's clock caps read from nvpmodel.conf, over the project's conf fixtures: the GPU and
// EMC MAX_FREQ, the lowest cap of the CPU clusters the mode keeps online, and nvpmodel's "no
// limit" values (-1, read as 2147483647, and an EMC cap of 0) read as no cap, never as a number.
#include <jetperf/platform/mode_caps.hpp>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <support/fixtures.hpp>

using namespace jetperf::platform;

namespace {

mode_caps caps(const nvpmodel_conf& conf, int id) {
  const auto* m = conf.find_mode(id);
  if (!m) throw std::runtime_error("no mode " + std::to_string(id));
  return caps_of_mode(conf, *m);
}

}  // namespace

TEST(mode_caps, tx2_modes_cap_the_a57_cluster_and_not_the_offline_denver_one) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_tx2_jetperf.conf");
  const auto conf = parse_nvpmodel_conf(text);
  const auto maxn = caps(conf, 0);
  EXPECT_FALSE(maxn.gpu_freq_hz);  // GPU MAX_FREQ -1
  EXPECT_FALSE(maxn.cpu_freq_khz);
  EXPECT_FALSE(maxn.emc_freq_hz);  // EMC MAX_FREQ 0
  const auto arm = caps(conf, 3);  // MAXP_CORE_ARM: Denver (cpu1, cpu2) offline
  EXPECT_EQ(arm.gpu_freq_hz, 1120000000);
  EXPECT_EQ(arm.cpu_freq_khz, 2000000);
  EXPECT_EQ(arm.emc_freq_hz, 1600000000);
  EXPECT_EQ(caps(conf, 2).cpu_freq_khz, 1400000);  // both clusters online at 1400000
  EXPECT_EQ(caps(conf, 1).emc_freq_hz, 1331200000);
}

TEST(mode_caps, xavier_nx_desktop_mode_caps_gpu_cpu_and_emc) {
  JETPERF_LOAD_FIXTURE(text, "nvpmodel_conf_xavier-nx_jetperf.conf");
  const auto conf = parse_nvpmodel_conf(text);
  const auto desktop = caps(conf, 5);
  EXPECT_EQ(desktop.gpu_freq_hz, 510000000);
  EXPECT_EQ(desktop.cpu_freq_khz, 1907200);
  EXPECT_EQ(desktop.emc_freq_hz, 1600000000);
  EXPECT_EQ(caps(conf, 8).emc_freq_hz, 1866000000);
  // The accelerator caps (CVNAS, NVDEC, ...) are CLOCK params too, but no CPU's.
  EXPECT_EQ(caps(conf, 4).cpu_freq_khz, 1190400);
}

TEST(mode_caps, sentinels_are_no_cap_and_caps_filter_offered_values) {
  EXPECT_FALSE(clock_cap("-1"));
  EXPECT_FALSE(clock_cap("2147483647"));
  EXPECT_FALSE(clock_cap("0"));
  EXPECT_EQ(clock_cap("624750000"), 624750000);
  EXPECT_THROW(clock_cap("fast"), jetperf::platform_error);
  const std::vector<std::int64_t> gpu{114750000, 624750000, 828750000, 1300500000};
  EXPECT_EQ(under_cap(gpu, 624750000), (std::vector<std::int64_t>{114750000, 624750000}));
  EXPECT_EQ(under_cap(gpu, std::nullopt), gpu);
  mode_caps c;
  c.cpu_freq_khz = 1344000;
  EXPECT_EQ(c.of("cpu_freq_khz"), 1344000);
  EXPECT_FALSE(c.of("gpu_freq_hz"));
  EXPECT_FALSE(c.of("power_mode"));
}

TEST(mode_caps, a_value_above_the_cap_is_refused_naming_field_mode_and_cap) {
  const std::vector<std::int64_t> gpu{114750000, 624750000, 1300500000};
  EXPECT_EQ(check_under_cap(624750000, 624750000, gpu, "gpu", "gpu_freq_hz", "2 (MODE_30W)"), 624750000);
  EXPECT_EQ(check_under_cap(1300500000, std::nullopt, gpu, "gpu", "gpu_freq_hz", "0 (MAXN)"), 1300500000);
  try {
    check_under_cap(1300500000, 624750000, gpu, "spec.gpu_freqs", "gpu_freq_hz", "2 (MODE_30W)");
    FAIL() << "not refused";
  } catch (const jetperf::validation_error& e) {
    EXPECT_EQ(e.field(), "spec.gpu_freqs");
    EXPECT_EQ(e.code(), "above_cap");
    const std::string what = e.what();
    EXPECT_NE(what.find("gpu_freq_hz 1300500000 is above the cap of power mode 2 (MODE_30W), 624750000"),
              std::string::npos) << what;
    EXPECT_NE(what.find("valid in that mode: 114750000, 624750000"), std::string::npos) << what;
  }
}
