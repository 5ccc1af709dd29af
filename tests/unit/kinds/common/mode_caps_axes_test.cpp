// A spec's clock axes under the power modes' caps: "max" and "min" are the limits of the mode a
// point runs in (the mode in effect, or each swept one), a value above the cap of the mode it
// would run in is refused naming the field and the cap, a sweep over modes x clocks keeps only
// the combinations each mode allows, and a spec within the caps normalizes as it always did.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <jetperf/store/cell_json.hpp>

#include <jetperf/common/errors.hpp>
#include <jetperf/kinds/common/sweep_axes.hpp>

using namespace jetperf;
using nlohmann::json;

namespace {

// An Orin Nano's modes (the simulated board's): 0 15W, 1 25W (in effect), 2 MAXN_SUPER (no caps).
platform::board_offer orin_nano() {
  platform::board_offer o;
  platform::mode_caps w15, w25;
  w15.cpu_freq_khz = 1497600;
  w15.gpu_freq_hz = 612000000;
  w25.cpu_freq_khz = 1344000;
  w25.gpu_freq_hz = 918000000;
  o.power_modes = {{0, "15W", {}}, {1, "25W", {}}, {2, "MAXN_SUPER", {}}};
  o.caps = {{0, w15}, {1, w25}};
  o.power_mode = 1;
  o.cpu_freqs_khz = {115200, 729600, 1344000, 1497600, 1728000};
  o.gpu_freqs_hz = {306000000, 612000000, 918000000, 1020000000};
  return o;
}

json normalized(const json& spec, const platform::board_offer& offer) {
  record out;
  kinds::common::normalize_board_axes(record_of(spec), offer, out);
  return to_json(cell(out));
}

std::pair<std::string, std::string> refusal(const json& spec, const platform::board_offer& offer) {
  try {
    normalized(spec, offer);
  } catch (const validation_error& e) {
    return {e.field(), std::string(e.code()) + ": " + e.what()};
  }
  return {};
}

// (power_mode, gpu_freq_hz, cpu_freq_khz) of each board setting the normalized spec sweeps.
std::vector<std::string> settings(const json& norm) {
  std::vector<std::string> out;
  for (const auto& p : kinds::common::board_setting_points(record_of(norm)))
    out.push_back(to_json(cell(p)).dump());
  return out;
}

}  // namespace

TEST(mode_caps_axes, max_min_and_all_are_the_limits_of_the_mode_in_effect) {
  const auto offer = orin_nano();
  EXPECT_EQ(normalized({{"cpu_freqs", {"max"}}}, offer)["cpu_freqs"], json({1344000}));
  EXPECT_EQ(normalized({{"cpu_freqs", "min,max"}}, offer)["cpu_freqs"], json({115200, 1344000}));
  EXPECT_EQ(normalized({{"cpu_freqs", "all"}}, offer)["cpu_freqs"], json({115200, 729600, 1344000}));
  EXPECT_EQ(normalized({{"gpu_freqs", {"max"}}}, offer)["gpu_freqs"], json({918000000}));
  // Without a known mode there is no cap: the board's own top.
  auto unknown = offer;
  unknown.power_mode.reset();
  EXPECT_EQ(normalized({{"cpu_freqs", {"max"}}}, unknown)["cpu_freqs"], json({1728000}));
}

TEST(mode_caps_axes, a_clock_above_the_cap_of_the_mode_in_effect_is_refused_naming_field_and_cap) {
  const auto r = refusal({{"cpu_freqs", {1728000}}}, orin_nano());
  EXPECT_EQ(r.first, "spec.cpu_freqs");
  EXPECT_EQ(r.second.rfind("above_cap: cpu_freq_khz 1728000 is above the cap of power mode 1 (25W), 1344000", 0), 0u)
      << r.second;
  EXPECT_NE(r.second.find("valid in that mode: 115200, 729600, 1344000"), std::string::npos) << r.second;
  // The same value with a mode that allows it: the point runs in that mode.
  EXPECT_EQ(normalized({{"cpu_freqs", {1728000}}, {"power_modes", {2}}}, orin_nano())["cpu_freqs"], json({1728000}));
}

TEST(mode_caps_axes, a_spec_within_the_caps_normalizes_as_before) {
  const auto n = normalized({{"cpu_freqs", {115200, 1344000}}, {"gpu_freqs", {612000000}}}, orin_nano());
  EXPECT_EQ(n, json({{"gpu_freqs", {612000000}}, {"cpu_freqs", {115200, 1344000}}, {"emc_freqs", nullptr},
                     {"power_modes", nullptr}, {"allow_reboot", false}}));
  EXPECT_EQ(kinds::common::board_setting_count(record_of(n)), 2u);
}

TEST(mode_caps_axes, a_sweep_over_modes_takes_each_mode_s_own_max) {
  const auto n = normalized({{"power_modes", "all"}, {"gpu_freqs", "max"}}, orin_nano());
  EXPECT_EQ(n["gpu_freqs"], json({612000000, 918000000, 1020000000}));
  EXPECT_EQ(n["clocks_by_mode"], json({{"0", {{"gpu_freqs", {612000000}}}},
                                       {"1", {{"gpu_freqs", {918000000}}}},
                                       {"2", {{"gpu_freqs", {1020000000}}}}}));
  EXPECT_EQ(settings(n),
            (std::vector<std::string>{
                R"({"cpu_freq_khz":null,"emc_freq_hz":null,"gpu_freq_hz":612000000,"power_mode":0})",
                R"({"cpu_freq_khz":null,"emc_freq_hz":null,"gpu_freq_hz":918000000,"power_mode":1})",
                R"({"cpu_freq_khz":null,"emc_freq_hz":null,"gpu_freq_hz":1020000000,"power_mode":2})"}));
  EXPECT_EQ(kinds::common::board_setting_count(record_of(n)), 3u);
  // The stored spec given back (jetperf rerun) is the same spec with the same points.
  EXPECT_EQ(normalized(n, orin_nano()), n);
}

TEST(mode_caps_axes, a_sweep_over_modes_keeps_only_the_combinations_each_mode_allows) {
  const auto n = normalized({{"power_modes", {0, 2}}, {"gpu_freqs", {612000000, 1020000000}}}, orin_nano());
  EXPECT_EQ(n["clocks_by_mode"], json({{"0", {{"gpu_freqs", {612000000}}}}}));
  EXPECT_EQ(settings(n).size(), 3u);  // 15W x 612 MHz, MAXN_SUPER x 612 and 1020 MHz
  for (const auto& s : settings(n)) EXPECT_EQ(s.find(R"("gpu_freq_hz":1020000000,"power_mode":0)"), std::string::npos) << s;
  // A value no swept mode allows could only be skipped: refused.
  const auto r = refusal({{"power_modes", {0, 1}}, {"gpu_freqs", {1020000000}}}, orin_nano());
  EXPECT_EQ(r.first, "spec.gpu_freqs");
  EXPECT_NE(r.second.find("above the cap of every power mode swept (0 (15W) 612000000, 1 (25W) 918000000)"),
            std::string::npos) << r.second;
  // A clocks_by_mode given back may only narrow a mode's list under its cap.
  const auto bad = refusal({{"power_modes", {0, 2}}, {"gpu_freqs", {612000000, 1020000000}},
                            {"clocks_by_mode", {{"0", {{"gpu_freqs", {1020000000}}}}}}},
                           orin_nano());
  EXPECT_EQ(bad.first, "spec.clocks_by_mode.0.gpu_freqs");
  EXPECT_EQ(refusal({{"gpu_freqs", {612000000}}, {"clocks_by_mode", {{"1", {{"gpu_freqs", {612000000}}}}}}}, orin_nano())
                .first,
            "spec.clocks_by_mode.1");
}
