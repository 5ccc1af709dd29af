#include <jetperf/kinds/gemm/gemm_estimate.hpp>
#include <jetperf/kinds/gemm/gemm_spec.hpp>

#include <set>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>

#include "../spec_json.hpp"

using nlohmann::json;
using namespace jetperf::kinds;
namespace measure = jetperf::measure;

namespace {

json normalize_gemm_spec(const json& spec, const jetperf::platform::board_offer& off) {
  return jetperf::test::normalized_json<gemm_spec>("gemm", spec, off);
}
std::vector<json> expand_gemm_spec(const json& stored) { return jetperf::test::expanded_json<gemm_spec>(stored); }

jetperf::platform::board_offer offered() {
  jetperf::platform::board_offer o;
  o.power_modes = {{0, "MAXN", {}}, {2, "15W", {}}};
  o.gpu_freqs_hz = {114750000, 624750000, 1377000000};
  o.cpu_freqs_khz = {1200000, 2265600};
  o.emc_freqs_hz = {2133000000};
  o.has_cuda_device = true;
  o.gpu_memory_bytes = 1LL << 30;
  o.memory_bytes = 1LL << 30;
  return o;
}

// The field named by the validation_error `spec` raises, or "" when it is accepted.
std::string error_field(const json& spec, const jetperf::platform::board_offer& off = offered()) {
  try {
    normalize_gemm_spec(spec, off);
  } catch (const jetperf::validation_error& e) {
    return e.field();
  }
  return "";
}

jetperf::platform::board_offer no_cuda() {
  jetperf::platform::board_offer o;
  o.has_cuda_device = false;
  return o;
}

}  // namespace

TEST(gemm_spec, defaults) {
  const auto s = normalize_gemm_spec(json::object(), offered());
  EXPECT_EQ(s["device"], "cuda");  // the board has a CUDA device
  EXPECT_EQ(s["dtypes"], json({"float"}));
  EXPECT_EQ(s["sizes"].size(), 16u);  // 128:2048:128, as the seed
  EXPECT_EQ(s["tensor"], json({true, false}));
  EXPECT_TRUE(s["gpu_freqs"].is_null());
  EXPECT_TRUE(s["duration_s"].is_null());
  EXPECT_DOUBLE_EQ(s["target_rse"].get<double>(), 0.01);
  const auto cpu = normalize_gemm_spec(json::object(), no_cuda());
  EXPECT_EQ(cpu["device"], "cpu");
  EXPECT_EQ(cpu["tensor"], json({false}));
  EXPECT_EQ(s["repeats"], 1);
}

TEST(gemm_spec, repeats_run_the_whole_sweep_again_outermost) {
  const auto s = normalize_gemm_spec({{"sizes", {64, 96}}, {"tensor", "off"}, {"repeats", 3}}, offered());
  const auto points = expand_gemm_spec(s);
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[0]["repeat"], 0);
  EXPECT_EQ(points[1]["repeat"], 0);
  EXPECT_EQ(points[2]["repeat"], 1);
  EXPECT_EQ(points[2]["m"], 64);
  EXPECT_EQ(points[5]["repeat"], 2);
  EXPECT_EQ(error_field({{"repeats", 0}}), "spec.repeats");
  // A spec stored before repeats existed runs once.
  auto old = s;
  old.erase("repeats");
  EXPECT_EQ(expand_gemm_spec(old).size(), 2u);
}

TEST(gemm_spec, size_forms) {
  auto s = normalize_gemm_spec({{"sizes", "128:512:128"}}, offered());
  ASSERT_EQ(s["sizes"].size(), 4u);
  EXPECT_EQ(s["sizes"][3], json({{"m", 512}, {"n", 512}, {"k", 512}}));
  s = normalize_gemm_spec({{"sizes", {64, 96}}}, offered());
  EXPECT_EQ(s["sizes"][1], json({{"m", 96}, {"n", 96}, {"k", 96}}));
  s = normalize_gemm_spec({{"sizes", {"256x128x64", "32X16X8"}}}, offered());
  EXPECT_EQ(s["sizes"][0], json({{"m", 256}, {"n", 128}, {"k", 64}}));
  EXPECT_EQ(s["sizes"][1], json({{"m", 32}, {"n", 16}, {"k", 8}}));
}

TEST(gemm_spec, frequency_keywords_and_modes_by_name) {
  const auto s = normalize_gemm_spec(
      {{"gpu_freqs", "all"}, {"cpu_freqs", "max"}, {"emc_freqs", "min"}, {"power_modes", {"15W", 0}}}, offered());
  EXPECT_EQ(s["gpu_freqs"], json({114750000, 624750000, 1377000000}));
  EXPECT_EQ(s["cpu_freqs"], json({2265600}));
  EXPECT_EQ(s["emc_freqs"], json({2133000000}));
  EXPECT_EQ(s["power_modes"], json({2, 0}));
  EXPECT_EQ(normalize_gemm_spec({{"dtypes", "half,double"}, {"tensor", {"on"}}}, offered())["dtypes"],
            json({"half", "double"}));
}

TEST(gemm_spec, each_bad_field_is_named) {
  EXPECT_EQ(error_field({{"dtypes", {"quad"}}}), "spec.dtypes");
  EXPECT_EQ(error_field({{"dtypes", json::array()}}), "spec.dtypes");
  EXPECT_EQ(error_field({{"sizes", "512:128:128"}}), "spec.sizes");  // empty range
  EXPECT_EQ(error_field({{"sizes", json::array()}}), "spec.sizes");
  EXPECT_EQ(error_field({{"sizes", {"12x3"}}}), "spec.sizes");
  EXPECT_EQ(error_field({{"sizes", {0}}}), "spec.sizes");
  EXPECT_EQ(error_field({{"sizes", "1:9:0"}}), "spec.sizes");
  // 3 x 16384^2 x 8 bytes = 6 GiB > 1 GiB of GPU memory.
  EXPECT_EQ(error_field({{"sizes", {16384}}, {"dtypes", {"double"}}}), "spec.sizes");
  EXPECT_EQ(error_field({{"sizes", {4096}}, {"dtypes", {"half"}}}), "");  // 96 MiB fits
  EXPECT_EQ(error_field({{"gpu_freqs", {123}}}), "spec.gpu_freqs");
  EXPECT_EQ(error_field({{"cpu_freqs", {1}}}), "spec.cpu_freqs");
  EXPECT_EQ(error_field({{"emc_freqs", "fastest"}}), "spec.emc_freqs");
  EXPECT_EQ(error_field({{"gpu_freqs", "max"}}, {}), "spec.gpu_freqs");  // no board: nothing offered
  EXPECT_EQ(error_field({{"power_modes", {"TURBO"}}}), "spec.power_modes");
  EXPECT_EQ(error_field({{"power_modes", {7}}}), "spec.power_modes");
  EXPECT_EQ(error_field({{"tensor", "maybe"}}), "spec.tensor");
  EXPECT_EQ(error_field({{"device", "tpu"}}), "spec.device");
  EXPECT_EQ(error_field({{"bogus", 1}}), "spec.bogus");
  EXPECT_EQ(error_field({{"threads", -1}}), "spec.threads");
  EXPECT_EQ(error_field({{"target_rse", 0}}), "spec.target_rse");
  EXPECT_EQ(error_field({{"min_time_s", 5}, {"max_time_s", 1}}), "spec.max_time_s");
  EXPECT_EQ(error_field({{"warmup_s", "long"}}), "spec.warmup_s");
  EXPECT_EQ(error_field({{"duration_s", 0}}), "spec.duration_s");
  // 3 dtypes x 2 tensor x 3 clocks x 10000 sizes = 180 000 points.
  EXPECT_EQ(error_field({{"dtypes", {"half", "float", "double"}}, {"gpu_freqs", "all"}, {"sizes", "1:10000:1"}}),
            "spec.sizes");
}

TEST(gemm_spec, frequency_error_lists_the_valid_values) {
  try {
    normalize_gemm_spec({{"gpu_freqs", {123}}}, offered());
    FAIL() << "accepted a frequency the board does not offer";
  } catch (const jetperf::validation_error& e) {
    EXPECT_NE(std::string(e.what()).find("114750000, 624750000, 1377000000"), std::string::npos) << e.what();
  }
}

TEST(gemm_spec, expansion_count_fields_and_order_minimise_changes) {
  const auto s = normalize_gemm_spec({{"power_modes", {0, 2}},
                                      {"gpu_freqs", "all"},
                                      {"cpu_freqs", "all"},
                                      {"dtypes", {"half", "float"}},
                                      {"tensor", "both"},
                                      {"sizes", "128:256:128"}},
                                     offered());
  const auto points = expand_gemm_spec(s);
  ASSERT_EQ(points.size(), 2u * 3 * 2 * 2 * 2 * 2);
  for (const char* key : {"power_mode", "emc_freq_hz", "gpu_freq_hz", "cpu_freq_khz", "device", "dtype", "tensor",
                          "m", "n", "k"})
    EXPECT_TRUE(points[0].contains(key)) << key;
  EXPECT_TRUE(points[0]["emc_freq_hz"].is_null());  // not requested: left as it is
  int mode_changes = 0, setting_changes = 0;
  std::set<std::string> distinct;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    distinct.insert(json{p["power_mode"], p["emc_freq_hz"], p["gpu_freq_hz"], p["cpu_freq_khz"]}.dump());
    if (i == 0) continue;
    const auto& q = points[i - 1];
    mode_changes += p["power_mode"] != q["power_mode"];
    setting_changes += p["power_mode"] != q["power_mode"] || p["gpu_freq_hz"] != q["gpu_freq_hz"] ||
                       p["cpu_freq_khz"] != q["cpu_freq_khz"] || p["emc_freq_hz"] != q["emc_freq_hz"];
  }
  // The fewest possible: each mode and each clock setting is entered exactly once.
  EXPECT_EQ(mode_changes, 1);
  EXPECT_EQ(setting_changes, static_cast<int>(distinct.size()) - 1);
  // Innermost is size, then tensor.
  EXPECT_EQ(points[0]["m"], 128);
  EXPECT_EQ(points[1]["m"], 256);
  EXPECT_EQ(points[0]["tensor"], true);
  EXPECT_EQ(points[2]["tensor"], false);
  EXPECT_EQ(points[0]["dtype"], "half");
  EXPECT_EQ(points[4]["dtype"], "float");
}

TEST(gemm_estimate, a_fixed_window_is_its_duration_warm_up_and_one_idle_baseline_per_setting) {
  const auto spec = jetperf::test::stored_of<gemm_spec>(
      normalize_gemm_spec({{"device", "cpu"}, {"duration_s", 2.0}, {"warmup_s", 1.0}, {"sizes", {64, 128}}, {"cpu_freqs", "all"}}, offered()));
  const auto points = expand(spec);
  ASSERT_EQ(points.size(), 4u);  // 2 CPU clocks x 2 sizes
  measure::estimate_context ctx;
  ctx.run = [](const measure::run_cost&) { return measure::run_time{1e-3, 0.01}; };
  const auto t = estimate_gemm_points_s(spec, points, ctx);
  const double idle = spec.idle_baseline_s() + 2 * spec.boundary_s;
  // warm-up 1 s + window 2 s + the run that ends it + filling the matrices.
  EXPECT_NEAR(t[1], 3.0 + 1e-3, 1e-3);
  EXPECT_NEAR(t[0], idle + 3.0 + 1e-3, 1e-3) << "the first point of a setting measures its idle baseline";
  EXPECT_NEAR(t[2], idle + 3.0 + 1e-3, 1e-3) << "so does the first point of the next clock";
  EXPECT_NEAR(t[3], t[1], 1e-4);
}

TEST(gemm_estimate, a_contended_window_measured_again_counts_each_time) {
  const auto spec = jetperf::test::stored_of<gemm_spec>(
      normalize_gemm_spec({{"device", "cpu"}, {"duration_s", 2.0}, {"warmup_s", 1.0}, {"sizes", {64, 128}}}, offered()));
  const auto points = expand(spec);
  measure::estimate_context ctx;
  ctx.run = [](const measure::run_cost&) { return measure::run_time{1e-3, 0.01}; };
  const auto once = estimate_gemm_points_s(spec, points, ctx);
  ctx.window_repeats = 3;  // every window contended, measured twice more
  const auto thrice = estimate_gemm_points_s(spec, points, ctx);
  // The window (2 s and the run that ends it) three times; the warm-up and idle baseline once.
  EXPECT_NEAR(thrice[0] - once[0], 2 * (2.0 + 1e-3), 1e-9);
  EXPECT_NEAR(thrice[1] - once[1], 2 * (2.0 + 1e-3), 1e-9);
}

TEST(gemm_estimate, large_gemms_take_their_runs_not_the_window_floor) {
  const auto spec = jetperf::test::stored_of<gemm_spec>(normalize_gemm_spec(
      {{"device", "cpu"}, {"sizes", {128, 2048}}, {"min_time_s", 0.2}, {"max_time_s", 30.0}, {"min_samples", 10}}, offered()));
  const auto points = expand(spec);
  // What this board measured: 50 GFLOP/s and 10 us per call, whatever the size.
  measure::estimate_context ctx;
  ctx.run = [](const measure::run_cost& c) { return measure::run_time{10e-6 + c.work / 50e9, 0.01}; };
  const auto t = estimate_gemm_points_s(spec, points, ctx);
  const double run2048 = 10e-6 + 2.0 * 2048 * 2048 * 2048 / 50e9;  // 0.34 s
  // 128: the 0.2 s window floor dominates; 2048: ten runs of 0.34 s.
  EXPECT_LT(t[0], 0.2 + spec.idle_baseline_s() + 2 * spec.boundary_s + spec.warmup_s + 0.05);
  EXPECT_NEAR(t[1], std::max(spec.warmup_s, run2048) + 10 * run2048, 0.05);
  // Runs that vary a lot keep the window open until the time RSE target or max_time_s.
  ctx.run = [](const measure::run_cost& c) { return measure::run_time{10e-6 + c.work / 50e9, 10.0}; };
  EXPECT_NEAR(estimate_gemm_points_s(spec, points, ctx)[0],
              spec.idle_baseline_s() + 2 * spec.boundary_s + spec.warmup_s + 30.0, 0.05);
  // The run cost the model learns from names the class and the clock only where the point sets it.
  const auto c = gemm_run_cost(points[1]);
  EXPECT_EQ(c.cls, "cpu/float/tensor=off");
  EXPECT_DOUBLE_EQ(c.work, 2.0 * 2048 * 2048 * 2048);
  EXPECT_FALSE(c.clock_hz);
  EXPECT_GT(c.prior_s, 0);
}

TEST(gemm_spec, power_modes_that_need_a_reboot_are_refused_without_allow_reboot) {
  auto off = offered();
  off.power_modes[0].reboot_from = {2};  // MAXN ungates TPCs that 15W gates
  off.power_modes[1].reboot_from = {0};
  off.power_mode = 2;
  try {
    normalize_gemm_spec({{"power_modes", "all"}}, off);
    ADD_FAILURE() << "a sweep that needs reboots was accepted";
  } catch (const jetperf::validation_error& e) {
    EXPECT_EQ(e.field(), "spec.allow_reboot");
    EXPECT_EQ(e.code(), "reboot_needed");
    // Through the sweep in order; it ends in the mode it started from, so no extra way back.
    EXPECT_NE(std::string(e.what()).find("need a reboot: 2 (15W) -> 0 (MAXN), 0 (MAXN) -> 2 (15W); set allow_reboot"),
              std::string::npos)
        << e.what();
  }
  try {
    normalize_gemm_spec({{"power_modes", {0}}}, off);
    ADD_FAILURE() << "a sweep that needs reboots was accepted";
  } catch (const jetperf::validation_error& e) {
    EXPECT_NE(std::string(e.what()).find("2 (15W) -> 0 (MAXN), 0 (MAXN) -> 2 (15W) when the job ends"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(error_field({{"power_modes", {2}}}, off), "");
  EXPECT_EQ(error_field({{"power_modes", "all"}, {"allow_reboot", "yes"}}, off), "spec.allow_reboot");

  const auto s = normalize_gemm_spec({{"power_modes", "all"}, {"allow_reboot", true}}, off);
  EXPECT_EQ(s["allow_reboot"], true);
  EXPECT_EQ(s["power_modes"], json({0, 2}));
  // Kept through the stored form, and false by default.
  EXPECT_EQ(jetperf::test::stored_of<gemm_spec>(s).to_record().at("allow_reboot"), jetperf::cell(true));
  EXPECT_EQ(normalize_gemm_spec(json::object(), off)["allow_reboot"], false);
  bool declared = false;
  for (const auto& f : gemm_spec_fields()) declared = declared || (f.name == "allow_reboot" && f.default_value == false);
  EXPECT_TRUE(declared);
}
