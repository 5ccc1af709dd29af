#include <jetperf/kinds/gemm/gemm_compare.hpp>
#include <jetperf/kinds/gemm/gemm_kind.hpp>

#include <algorithm>

#include <gtest/gtest.h>

#include <jetperf/store/cell_json.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/stats/student_t.hpp>
#include <jetperf/jobs/swept_parameters.hpp>

using nlohmann::json;
using namespace jetperf::kinds;

namespace {

// The points written as the stored rows they stand for; the answers read as served.
std::vector<jetperf::jobs::point_row> rows_of(const std::vector<json>& points) {
  std::vector<jetperf::jobs::point_row> out;
  for (const auto& p : points)
    out.push_back({static_cast<std::int64_t>(out.size()), p.value("status", std::string("ok")),
                   jetperf::record_of(p.at("params")), jetperf::row_of(p.at("metrics"))});
  return out;
}
json compare_json(const std::vector<json>& points, const std::string& by) {
  return jetperf::to_json(compare_gemm_points(rows_of(points), by));
}
json best_json(const std::vector<json>& points) { return jetperf::to_json(best_gemm_settings(rows_of(points))); }
json repeats_json(const std::vector<json>& points) { return jetperf::to_json(gemm_repeat_stats(rows_of(points))); }

json point(const std::string& dtype, int size, bool tensor, long gpu, double gflops, double power) {
  return {{"params",
           {{"power_mode", nullptr}, {"emc_freq_hz", nullptr}, {"gpu_freq_hz", gpu}, {"cpu_freq_khz", nullptr},
            {"device", "cuda"}, {"dtype", dtype}, {"tensor", tensor}, {"m", size}, {"n", size}, {"k", size}}},
          {"metrics", {{"gflops", gflops}, {"power_w", power}, {"gflops_per_w", gflops / power}}},
          {"status", "ok"}};
}
}  // namespace

TEST(gemm_compare, tensor_ratio_matches_on_all_other_params) {
  const std::vector<json> pts = {point("half", 512, true, 1000, 400, 10), point("half", 512, false, 1000, 100, 8),
                                 point("half", 1024, true, 1000, 500, 10),  // no off partner: no row
                                 point("float", 512, false, 1000, 50, 5)};
  const auto rows = compare_json(pts, "tensor");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["dtype"], "half");
  EXPECT_EQ(rows[0]["m"], 512);
  EXPECT_FALSE(rows[0].contains("tensor"));
  EXPECT_DOUBLE_EQ(rows[0]["gflops_ratio"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(rows[0]["gflops_per_w_ratio"].get<double>(), (400.0 / 10) / (100.0 / 8));
}

TEST(gemm_compare, most_efficient_gpu_clock_per_dtype_and_size) {
  const std::vector<json> pts = {point("float", 512, false, 300, 100, 4), point("float", 512, false, 600, 180, 6),
                                 point("float", 512, false, 900, 220, 11), point("double", 512, false, 300, 10, 4),
                                 point("double", 512, false, 900, 30, 9)};
  const auto rows = compare_json(pts, "gpu_freq_hz");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["dtype"], "float");
  EXPECT_EQ(rows[0]["best_gpu_freq_hz"], 600);  // 30 GFLOPS/W beats 25 and 20
  EXPECT_EQ(rows[0]["values"].size(), 3u);
  EXPECT_EQ(rows[1]["best_gpu_freq_hz"], 900);
}

TEST(gemm_compare, failed_points_are_ignored_and_unknown_by_is_rejected) {
  auto bad = point("float", 512, false, 300, 1e6, 1);
  bad["status"] = "failed";
  const auto rows = compare_json({bad, point("float", 512, false, 600, 10, 1)}, "gpu_freq_hz");
  EXPECT_EQ(rows[0]["best_gpu_freq_hz"], 600);
  // Refused by the workload, from the views gemm declares, before its compare runs.
  try {
    jetperf::kinds::make_gemm_kind()->compare(rows_of({}), "colour");
    FAIL();
  } catch (const jetperf::validation_error& e) {
    EXPECT_EQ(e.field(), "by");
  }
}

TEST(gemm_compare, best_settings_per_dtype_size_and_overall) {
  const auto best = best_json({point("float", 512, false, 300, 100, 4), point("float", 512, false, 600, 180, 6),
                                        point("half", 512, true, 600, 800, 10)});
  ASSERT_EQ(best["best_per_dtype_size"].size(), 2u);
  EXPECT_EQ(best["best_per_dtype_size"][0]["params"]["gpu_freq_hz"], 600);
  EXPECT_EQ(best["best_overall"]["dtype"], "half");
  EXPECT_TRUE(best_json({})["best_overall"].is_null());
}

// The example: a CPU sweep where the top clock lost the CPU to other processes (or ended
// short of its precision target) must not win, and ranking over idle names another clock.
json cpu_point(long khz, double gflops, double power, double idle, std::vector<std::string> flags = {}) {
  auto p = point("float", 512, false, 0, gflops, power);
  p["params"]["gpu_freq_hz"] = nullptr;
  p["params"]["cpu_freq_khz"] = khz;
  p["params"]["device"] = "cpu";
  p["metrics"]["dynamic_power_w"] = power - idle;
  p["metrics"]["flags"] = flags;
  return p;
}

TEST(gemm_compare, verdicts_leave_out_contended_and_imprecise_points_and_rank_over_idle_too) {
  const std::vector<json> pts = {
      cpu_point(729600, 20, 4.0, 3.5),                     // 5 GFLOP/s/W, 40 over idle
      cpu_point(1497600, 40, 5.0, 3.6),                    // 8, 28.6
      cpu_point(2201600, 66, 6.0, 3.8, {"contended"}),     // 11: would win, lost the CPU
      cpu_point(1984000, 60, 6.5, 3.7, {"rse_unmet"}),     // 9.2: short of its target
      cpu_point(1728000, 50, 6.0, 3.7, {"throttled"}),     // 8.3: a flag that does not leave it out
  };
  const auto best = best_json(pts);
  EXPECT_EQ(best["best_overall"]["params"]["cpu_freq_khz"], 1728000) << best.dump();
  EXPECT_EQ(best["best_overall_over_idle"]["params"]["cpu_freq_khz"], 729600);
  EXPECT_DOUBLE_EQ(best["best_overall_over_idle"]["gflops_per_dynamic_w"].get<double>(), 20 / 0.5);
  EXPECT_EQ(best["left_out"], (json{{"contended", 1}, {"rse_unmet", 1}}));
  ASSERT_EQ(best["best_per_dtype_size"].size(), 1u);
  EXPECT_EQ(best["best_per_dtype_size"][0]["over_idle"]["params"]["cpu_freq_khz"], 729600);

  const auto rows = compare_json(pts, "cpu_freq_khz");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["best_cpu_freq_khz"], 1728000);
  EXPECT_EQ(rows[0]["best_cpu_freq_khz_over_idle"], 729600);
  EXPECT_EQ(rows[0]["left_out"], 2);
  ASSERT_EQ(rows[0]["values"].size(), 5u);  // every point listed, the left-out ones with why
  EXPECT_EQ(rows[0]["values"][2]["left_out"], "contended");
  EXPECT_EQ(rows[0]["values"][3]["left_out"], "rse_unmet");
  EXPECT_FALSE(rows[0]["values"][4].contains("left_out"));

  // Every point left out: no verdict, and the count says why.
  const auto none = best_json({cpu_point(2201600, 66, 6.0, 3.8, {"rse_unmet"})});
  EXPECT_TRUE(none["best_overall"].is_null());
  EXPECT_TRUE(none["best_overall_over_idle"].is_null());
  EXPECT_EQ(none["left_out"], (json{{"rse_unmet", 1}}));
}

TEST(gemm_compare, repeats_of_one_setting_give_a_mean_an_interval_and_a_disagreement_flag) {
  std::vector<json> pts;
  for (int r = 0; r < 3; ++r) {
    auto p = point("float", 512, false, 900, 100 + 10 * r, 5);  // 100, 110, 120 GFLOP/s
    p["params"]["repeat"] = r;
    p["metrics"]["time_rse"] = 0.001;  // each repeat known to 0.1%: a 10% spread is drift
    pts.push_back(p);
    auto other = point("float", 1024, false, 900, 200, 5);  // one per repeat, all alike
    other["params"]["repeat"] = r;
    other["metrics"]["time_rse"] = 0.01;
    pts.push_back(other);
  }
  const auto rows = repeats_json(pts);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["m"], 512);
  EXPECT_FALSE(rows[0].contains("repeat"));
  EXPECT_EQ(rows[0]["gflops"]["n"], 3);
  // The work over the repeats' mean time (each 2 x 512^3 FLOP over its GFLOP/s), and the bounds
  // of the rate from the time's interval, t(0.975, 2) x its std / sqrt(3) either way.
  const double work = 2.0 * 512 * 512 * 512 / 1e9;
  const std::vector<double> t = {work / 100, work / 110, work / 120};
  const double mean_t = (t[0] + t[1] + t[2]) / 3;
  const double std_t = std::sqrt(((t[0] - mean_t) * (t[0] - mean_t) + (t[1] - mean_t) * (t[1] - mean_t) +
                                  (t[2] - mean_t) * (t[2] - mean_t)) / 2);
  const double half_t = jetperf::stats::t95(2) * std_t / std::sqrt(3.0);
  EXPECT_NEAR(rows[0]["gflops"]["mean"].get<double>(), work / mean_t, 1e-9);
  EXPECT_NEAR(rows[0]["gflops"]["ci95_low"].get<double>(), work / (mean_t + half_t), 1e-9);
  EXPECT_NEAR(rows[0]["gflops"]["ci95_high"].get<double>(), work / (mean_t - half_t), 1e-9);
  EXPECT_EQ(rows[0]["repeats_disagree"], true);
  EXPECT_EQ(rows[1]["repeats_disagree"], false);
  EXPECT_NEAR(rows[1]["gflops"]["ci95_low"].get<double>(), 200, 1e-9);
  // Without repeats there is nothing to summarize.
  EXPECT_TRUE(repeats_json({point("float", 512, false, 900, 100, 5)}).empty());
}

// Points whose params differ only in the seventh decimal of a number are different points: the
// grouping keeps every digit of a double (six decimals would have merged them as repeats).
TEST(gemm_compare, params_that_differ_past_six_decimals_are_not_repeats_of_each_other) {
  auto a = point("float", 512, false, 900, 100, 5);
  auto b = point("float", 512, false, 900, 120, 5);
  a["params"]["gpu_freq_hz"] = 1.0000001;
  b["params"]["gpu_freq_hz"] = 1.0000002;
  a["params"]["repeat"] = 0;
  b["params"]["repeat"] = 1;
  EXPECT_TRUE(repeats_json({a, b}).empty());
  b["params"]["gpu_freq_hz"] = 1.0000001;
  EXPECT_EQ(repeats_json({a, b}).size(), 1u);
}

// The example: repeats whose times spread widely gave a GFLOP/s interval of -6.008 ..
// 48.541 (symmetric around the rates' mean). The rate's bounds come from the time's: the lower one
// is the work over the time's upper bound, and where the time's interval reaches zero the rate
// has no upper bound. GFLOP/s/W the same from the energy per run.
TEST(gemm_compare, a_wide_time_interval_gives_a_positive_lower_throughput_bound_from_its_upper_time) {
  std::vector<json> pts;
  const std::vector<double> times = {0.02, 0.05, 0.2};  // 100, 40 and 10 GFLOP/s of 2 GFLOP each
  for (int r = 0; r < 3; ++r) {
    auto p = point("float", 1000, false, 900, 2.0 / times[static_cast<std::size_t>(r)], 5);
    p["params"]["repeat"] = r;
    p["metrics"]["time_mean_s"] = times[static_cast<std::size_t>(r)];
    p["metrics"]["time_rse"] = 0.01;
    p["metrics"]["energy_j"] = 5 * times[static_cast<std::size_t>(r)];
    pts.push_back(p);
  }
  const auto rows = repeats_json(pts);
  ASSERT_EQ(rows.size(), 1u);
  const auto& g = rows[0]["gflops"];
  const double mean_t = 0.09, std_t = std::sqrt((0.07 * 0.07 + 0.04 * 0.04 + 0.11 * 0.11) / 2);
  const double upper_t = mean_t + jetperf::stats::t95(2) * std_t / std::sqrt(3.0);
  EXPECT_GT(g["ci95_low"].get<double>(), 0) << g.dump();
  EXPECT_NEAR(g["ci95_low"].get<double>(), 2.0 / upper_t, 1e-9) << g.dump();
  EXPECT_TRUE(g["ci95_high"].is_null()) << g.dump();  // the time's interval reaches zero
  EXPECT_NEAR(g["mean"].get<double>(), 2.0 / mean_t, 1e-9);
  const auto& e = rows[0]["gflops_per_w"];
  EXPECT_NEAR(e["ci95_low"].get<double>(), 2.0 / (5 * upper_t), 1e-9) << e.dump();
  EXPECT_TRUE(e["ci95_high"].is_null());
}

// A figure past a physical bound is no result: the verdicts leave the point out and count it, the
// comparisons list it with why, and no statistic takes it.
TEST(gemm_compare, verdicts_leave_out_implausible_points_and_count_them) {
  auto broken = cpu_point(2201600, 66, 6.0, 3.8);  // would win
  broken["status"] = "implausible";
  broken["metrics"]["implausible"] = {{"rail_above_total", "rail_VDD_CPU_w 9 W > 7.1 W (power_w)"}};
  const std::vector<json> pts = {cpu_point(729600, 20, 4.0, 3.5), cpu_point(1497600, 40, 5.0, 3.6), broken};
  const auto best = best_json(pts);
  EXPECT_EQ(best["best_overall"]["params"]["cpu_freq_khz"], 1497600) << best.dump();
  EXPECT_EQ(best["left_out"], (json{{"implausible", 1}}));
  const auto rows = compare_json(pts, "cpu_freq_khz");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["best_cpu_freq_khz"], 1497600);
  EXPECT_EQ(rows[0]["left_out"], 1);
  ASSERT_EQ(rows[0]["values"].size(), 3u);
  EXPECT_EQ(rows[0]["values"][2]["left_out"], "implausible");
  // Its repeat takes no part in the repeats' statistics.
  auto a = point("float", 512, false, 900, 100, 5), b = point("float", 512, false, 900, 1e6, 5);
  a["params"]["repeat"] = 0;
  b["params"]["repeat"] = 1;
  b["status"] = "implausible";
  EXPECT_TRUE(repeats_json({a, b}).empty());
}

// `compare 1 --by gpu_freq_hz` on a job that swept CPU clocks printed a row of "-" per point: a
// parameter the job held at one value (or never set) is refused naming the ones it swept.
TEST(gemm_compare, a_parameter_the_job_did_not_sweep_is_refused_naming_those_it_did) {
  auto cpu = [](long khz, int size) {
    auto p = point("float", size, false, 0, 10, 1);
    p["params"]["gpu_freq_hz"] = nullptr;
    p["params"]["cpu_freq_khz"] = khz;
    p["params"]["device"] = "cpu";
    p["metrics"]["gpu_freq_hz"] = 624750000;  // read back, not swept
    return p;
  };
  const auto rows = rows_of({cpu(115200, 256), cpu(1728000, 256), cpu(115200, 512), cpu(1728000, 512)});
  const auto kind = jetperf::kinds::make_gemm_kind();
  try {
    kind->compare(rows, "gpu_freq_hz");
    FAIL() << "compared by a parameter the job did not sweep";
  } catch (const jetperf::validation_error& e) {
    EXPECT_EQ(e.field(), "by");
    EXPECT_EQ(e.code(), "not_swept");
    EXPECT_NE(std::string(e.what()).find("did not sweep gpu_freq_hz"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("it swept: cpu_freq_khz, m, n, k"), std::string::npos) << e.what();
  }
  EXPECT_THROW(kind->compare(rows, "dtype"), jetperf::validation_error);  // one dtype
  EXPECT_EQ(jetperf::to_json(kind->compare(rows, "cpu_freq_khz")).size(), 2u);
  auto swept = jetperf::jobs::swept_parameters(rows);
  std::sort(swept.begin(), swept.end());
  EXPECT_EQ(swept, (std::vector<std::string>{"cpu_freq_khz", "k", "m", "n"}));
}
