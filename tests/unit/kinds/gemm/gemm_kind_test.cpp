#include <jetperf/store/cell_json.hpp>
#include <jetperf/kinds/gemm/gemm_kind.hpp>

#include <algorithm>

#include <gtest/gtest.h>

#include "support/json_workload.hpp"

#include <jetperf/common/errors.hpp>
#include <jetperf/config.hpp>
#include <jetperf/workloads/gemm_backends.hpp>

#include "../declared_columns.hpp"
#include "support/fake_sources.hpp"

using nlohmann::json;
using jetperf::test::fake_board;
using jetperf::test::fake_source;

namespace {

json quick_spec(const json& extra = json::object()) {
  json s = {{"device", "cpu"},  {"dtypes", {"float"}}, {"sizes", {64}},        {"warmup_s", 0.01},
            {"min_time_s", 0.05}, {"max_time_s", 0.5}, {"min_samples", 5},     {"target_rse", 0.5},
            {"boundary_s", 0.005}};
  for (auto it = extra.begin(); it != extra.end(); ++it) s[it.key()] = it.value();
  return s;
}

bool has_flag(const json& m, const std::string& f) {
  const auto& flags = m.at("flags");
  return std::find(flags.begin(), flags.end(), f) != flags.end();
}

class gemm_workload_test : public ::testing::Test {};

}  // namespace

// These run CPU float points, which need OpenBLAS; a build without it answers every such point
// "not supported by this build" (cpu_gemm_backend.float_support_follows_the_build checks that).
#if JETPERF_HAS_OPENBLAS

TEST_F(gemm_workload_test, run_point_derives_efficiency_from_known_power) {
  auto w = jetperf::test::json_workload(jetperf::kinds::make_gemm_kind());
  fake_board board;
  fake_source src;  // constant 7.5 W
  const auto spec = w->normalize(quick_spec(), board.offered());
  const auto points = w->expand(spec);
  ASSERT_EQ(points.size(), 1u);
  jetperf::measure::point_context ctx;
  ctx.job_id = 1;
  ctx.board = &board;
  ctx.telemetry = &src;
  const auto r = w->run_point(ctx, spec, points[0]);
  ASSERT_EQ(r.status, "ok") << jetperf::to_json(r.metrics).dump();
  const auto m = jetperf::to_json(r.metrics);
  EXPECT_EQ(jetperf::test::undeclared_keys(*w, m), "");
  EXPECT_EQ(m.at("dtype"), "float");
  EXPECT_EQ(m.at("m"), 64);
  EXPECT_EQ(m.at("tensor"), false);
  EXPECT_EQ(m.at("tensor_used"), false);
  EXPECT_GE(m.at("iterations").get<int>(), 5);
  EXPECT_GT(m.at("gflops").get<double>(), 0);
  const double t = m.at("time_mean_s").get<double>();
  EXPECT_NEAR(m.at("gflops").get<double>(), 2.0 * 64 * 64 * 64 / t / 1e9, 1e-9);
  EXPECT_DOUBLE_EQ(m.at("power_w").get<double>(), 7.5);
  EXPECT_NEAR(m.at("rail_VDD_GPU_w").get<double>(), 3.0, 1e-12);
  EXPECT_NEAR(m.at("gflops_per_w").get<double>(), m.at("gflops").get<double>() / 7.5, 1e-12);
  EXPECT_NEAR(m.at("energy_j").get<double>(), 7.5 * t, 1e-15);
  EXPECT_DOUBLE_EQ(m.at("idle_power_w").get<double>(), 7.5);
  EXPECT_NEAR(m.at("dynamic_energy_j").get<double>(), 0.0, 1e-15);
  EXPECT_DOUBLE_EQ(m.at("temp_max_c").get<double>(), 45.0);
  EXPECT_EQ(m.at("stop_reason"), "converged");
  EXPECT_LE(m.at("time_min_s").get<double>(), m.at("time_median_s").get<double>());
  EXPECT_GT(r.t_end_ns, r.t_start_ns);
}

TEST_F(gemm_workload_test, higher_clock_draws_more_power_and_idle_is_cached_per_setting) {
  auto w = jetperf::test::json_workload(jetperf::kinds::make_gemm_kind());
  fake_board board;
  fake_source src;
  src.power = [&board](std::int64_t) { return 2.0 + board.gpu_hz() / 1e8; };
  src.clock = [&board](std::int64_t) { return board.gpu_hz(); };
  const auto spec = w->normalize(quick_spec({{"gpu_freqs", {300000000, 900000000}}}), board.offered());
  const auto points = w->expand(spec);
  ASSERT_EQ(points.size(), 2u);
  jetperf::measure::point_context ctx;
  ctx.job_id = 7;
  ctx.board = &board;
  ctx.telemetry = &src;
  const auto lo = jetperf::to_json(w->run_point(ctx, spec, points[0]).metrics);
  const auto hi = jetperf::to_json(w->run_point(ctx, spec, points[1]).metrics);
  EXPECT_EQ(lo.at("gpu_freq_hz"), 300000000);
  EXPECT_EQ(hi.at("gpu_freq_hz"), 900000000);
  EXPECT_DOUBLE_EQ(lo.at("power_w").get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(hi.at("power_w").get<double>(), 11.0);
  EXPECT_GT(hi.at("power_w").get<double>(), lo.at("power_w").get<double>());
  EXPECT_FALSE(has_flag(hi, "throttled"));
  // The idle baseline is cached per setting within the job: a later point at 300 MHz reuses it.
  src.power = [](std::int64_t) { return 20.0; };
  const auto again = jetperf::to_json(w->run_point(ctx, spec, points[0]).metrics);
  EXPECT_DOUBLE_EQ(again.at("power_w").get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(again.at("idle_power_w").get<double>(), 5.0);
  EXPECT_NEAR(again.at("dynamic_energy_j").get<double>(), 15.0 * again.at("time_mean_s").get<double>(), 1e-12);
  const auto summary = w->summarize(spec, {{7, 0, points[0], lo, "ok", 0, 0}, {7, 1, points[1], hi, "ok", 0, 0}});
  EXPECT_EQ(summary.at("best_per_dtype_size").size(), 1u);
  EXPECT_FALSE(summary.at("best_overall").is_null());
}

TEST_F(gemm_workload_test, clock_below_request_is_flagged_throttled) {
  auto w = jetperf::test::json_workload(jetperf::kinds::make_gemm_kind());
  fake_board board;
  fake_source src;
  src.clock = [&board](std::int64_t) { return board.gpu_hz() * 0.5; };
  const auto spec = w->normalize(quick_spec({{"gpu_freqs", "max"}}), board.offered());
  jetperf::measure::point_context ctx;
  ctx.board = &board;
  ctx.telemetry = &src;
  const auto m = jetperf::to_json(w->run_point(ctx, spec, w->expand(spec)[0]).metrics);
  EXPECT_TRUE(has_flag(m, "throttled")) << m.dump();
}

TEST_F(gemm_workload_test, tensor_on_cpu_is_refused_and_a_stored_one_is_skipped) {
  auto w = jetperf::test::json_workload(jetperf::kinds::make_gemm_kind());
  try {
    w->normalize(quick_spec({{"tensor", "both"}}), {});
    FAIL() << "tensor cores on the cpu device were accepted";
  } catch (const jetperf::validation_error& e) {
    EXPECT_EQ(e.field(), "spec.tensor");
  }
  // A spec stored before the check (or written by hand) still runs: its tensor points are skipped.
  auto spec = w->normalize(quick_spec({}), {});
  spec["tensor"] = {true, false};
  const auto points = w->expand(spec);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(w->foreseen_skips(spec, points).size(), 1u);
  jetperf::measure::point_context ctx;
  const auto on = w->run_point(ctx, spec, points[0]);
  EXPECT_EQ(on.status, "skipped");
  EXPECT_EQ(jetperf::test::undeclared_keys(*w, on.metrics), "");
  EXPECT_NE(jetperf::to_json(on.metrics).at("reason").get<std::string>().find("GPU"), std::string::npos);
}

TEST_F(gemm_workload_test, without_telemetry_power_is_null) {
  auto w = jetperf::test::json_workload(jetperf::kinds::make_gemm_kind());
  const auto spec = w->normalize(quick_spec({}), {});
  const auto points = w->expand(spec);
  EXPECT_TRUE(w->foreseen_skips(spec, points).empty());
  jetperf::measure::point_context ctx;
  const auto off = w->run_point(ctx, spec, points[0]);
  ASSERT_EQ(off.status, "ok");
  EXPECT_TRUE(jetperf::to_json(off.metrics).at("power_w").is_null());
  EXPECT_TRUE(jetperf::to_json(off.metrics).at("gflops_per_w").is_null());
  EXPECT_TRUE(has_flag(jetperf::to_json(off.metrics), "no_power"));
}

TEST_F(gemm_workload_test, cuda_point_without_device_is_skipped_with_reason) {
  if (jetperf::workloads::cuda_device_available()) GTEST_SKIP() << "a CUDA device is present";
  auto w = jetperf::test::json_workload(jetperf::kinds::make_gemm_kind());
  const auto spec = w->normalize(quick_spec({{"device", "cuda"}}), {});
  jetperf::measure::point_context ctx;
  const auto points = w->expand(spec);
  const auto r = w->run_point(ctx, spec, points[0]);
  EXPECT_EQ(r.status, "skipped");
  const auto reason = jetperf::to_json(r.metrics).at("reason").get<std::string>();
  // The dry run foresees it, with the same reason, for every point.
  const auto foreseen = w->foreseen_skips(spec, points);
  ASSERT_EQ(foreseen.size(), 1u);
  EXPECT_EQ(foreseen.begin()->second, points.size());
  EXPECT_TRUE(reason.find("no CUDA device") != std::string::npos || reason.find("no CUDA") != std::string::npos)
      << reason;
}

TEST_F(gemm_workload_test, fixed_duration_protocol) {
  auto w = jetperf::test::json_workload(jetperf::kinds::make_gemm_kind());
  const auto spec = w->normalize(quick_spec({{"duration_s", 0.05}}), {});
  jetperf::measure::point_context ctx;
  const auto r = w->run_point(ctx, spec, w->expand(spec)[0]);
  EXPECT_EQ(jetperf::to_json(r.metrics).at("stop_reason"), "fixed_duration");
  EXPECT_GE(jetperf::to_json(r.metrics).at("window_s").get<double>(), 0.05);
}

#endif  // JETPERF_HAS_OPENBLAS
