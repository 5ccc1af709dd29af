// The cost model: run times fitted per kind and class from this board's runs (scaled by the clock
// the point set), the kind's guess for a class with no history, what the store keeps, and the
// calibration of whole jobs.
#include <jetperf/jobs/cost_model.hpp>

#include <gtest/gtest.h>

#include <jetperf/store/database.hpp>

using namespace jetperf;

namespace {

measure::run_cost cost(double work, std::optional<double> clock_hz = std::nullopt, const std::string& cls = "cpu/float") {
  measure::run_cost c;
  c.cls = cls;
  c.work = work;
  c.clock_hz = clock_hz;
  c.prior_s = 1.0;
  return c;
}

}  // namespace

TEST(cost_model, a_class_with_no_history_takes_the_kinds_guess) {
  jobs::cost_model model(nullptr, "board");
  EXPECT_DOUBLE_EQ(model.run("gemm", cost(1e9)).mean_s, 1.0);
}

TEST(cost_model, fits_a_fixed_cost_and_a_rate_from_runs_of_several_sizes) {
  jobs::cost_model model(nullptr, "board");
  // 20 us per call and 50 GFLOP/s: small runs are overhead, large ones throughput.
  for (double work : {1e3, 1e5, 1e7, 1e9, 1e10}) model.record_run("gemm", cost(work), 20e-6 + work / 50e9, 0.01);
  EXPECT_NEAR(model.run("gemm", cost(1e4)).mean_s, 20e-6 + 1e4 / 50e9, 1e-7);
  EXPECT_NEAR(model.run("gemm", cost(4e10)).mean_s / (20e-6 + 4e10 / 50e9), 1.0, 1e-3);
  // Another class and another kind do not share the fit.
  EXPECT_DOUBLE_EQ(model.run("gemm", cost(1e9, std::nullopt, "cpu/double")).mean_s, 1.0);
  EXPECT_DOUBLE_EQ(model.run("layers", cost(1e9)).mean_s, 1.0);
}

TEST(cost_model, runs_at_one_clock_predict_another) {
  jobs::cost_model model(nullptr, "board");
  // 10 FLOPs per cycle at 2 GHz.
  for (double work : {1e8, 1e9}) model.record_run("gemm", cost(work, 2e9), work / 2e10, 0.01);
  // At a tenth of the clock the same work takes ten times as long.
  EXPECT_NEAR(model.run("gemm", cost(1e9, 2e8)).mean_s, 1e9 / 2e9, 1e-6);
  // Runs at whatever clock the governor chose are a class of their own.
  EXPECT_DOUBLE_EQ(model.run("gemm", cost(1e9)).mean_s, 1.0);
}

TEST(cost_model, one_size_alone_gives_a_proportional_fit_and_noise_never_a_negative_time) {
  jobs::cost_model model(nullptr, "board");
  model.record_run("gemm", cost(1e9), 0.02, 0.01);
  model.record_run("gemm", cost(1e9), 0.03, 0.01);
  EXPECT_NEAR(model.run("gemm", cost(2e9)).mean_s, 0.05, 0.011);
  // Larger runs that happened to be faster would fit a negative slope: the mean stands instead.
  jobs::cost_model odd(nullptr, "board");
  odd.record_run("gemm", cost(1e3), 0.01, 0.01);
  odd.record_run("gemm", cost(1e9), 0.005, 0.01);
  EXPECT_GT(odd.run("gemm", cost(1e12)).mean_s, 0);
  EXPECT_GT(odd.run("gemm", cost(1)).mean_s, 0);
}

TEST(cost_model, what_it_learned_outlives_the_process_per_board_and_the_store_keeps_the_newest) {
  store::database db(":memory:");
  store::cost_store costs(db);
  {
    jobs::cost_model model(&costs, "sim:orin-agx");
    for (int i = 0; i < store::cost_store::k_kept_per_class + 10; ++i) model.record_run("gemm", cost(1e9), 0.1, 0.01);
  }
  EXPECT_EQ(costs.runs("sim:orin-agx", "gemm", "cpu/float|clock=free").size(),
            static_cast<std::size_t>(store::cost_store::k_kept_per_class));
  jobs::cost_model again(&costs, "sim:orin-agx");
  EXPECT_NEAR(again.run("gemm", cost(1e9)).mean_s, 0.1, 1e-9);
  // Another board starts afresh.
  jobs::cost_model other(&costs, "sim:nano");
  EXPECT_DOUBLE_EQ(other.run("gemm", cost(1e9)).mean_s, 1.0);
}

TEST(cost_model, calibration_is_the_recent_ratio_of_actual_to_predicted_within_bounds) {
  store::database db(":memory:");
  store::cost_store costs(db);
  jobs::cost_model model(&costs, "board");
  EXPECT_DOUBLE_EQ(model.calibration("gemm"), 1.0);
  model.record_job("gemm", 10, 20);
  EXPECT_DOUBLE_EQ(model.calibration("gemm"), 2.0);
  // Older jobs count half as much as each new one.
  model.record_job("gemm", 10, 10);
  EXPECT_DOUBLE_EQ(model.calibration("gemm"), (20.0 / 2 + 10) / (10.0 / 2 + 10));
  model.record_job("layers", 1, 1000);
  EXPECT_DOUBLE_EQ(model.calibration("layers"), 4.0);
  model.record_job("idle", 0, 5);  // nothing predicted: nothing learned
  EXPECT_DOUBLE_EQ(model.calibration("idle"), 1.0);
}

TEST(cost_model, history_counts_the_jobs_and_the_windows_their_points_measured) {
  store::database db(":memory:");
  store::cost_store costs(db);
  jobs::cost_model model(&costs, "board");
  auto h = model.history("gemm");
  EXPECT_EQ(h.jobs, 0);
  EXPECT_DOUBLE_EQ(h.window_repeats, 1.0);
  EXPECT_DOUBLE_EQ(h.calibration, 1.0);
  // Every window of 4 points contended and measured twice more.
  model.record_job("gemm", 10, 20, 12, 4);
  h = model.history("gemm");
  EXPECT_EQ(h.jobs, 1);
  EXPECT_DOUBLE_EQ(h.window_repeats, 3.0);
  EXPECT_DOUBLE_EQ(h.calibration, 2.0);
  // A quiet job after it: the older one counts half as much.
  model.record_job("gemm", 10, 10, 4, 4);
  h = model.history("gemm");
  EXPECT_EQ(h.jobs, 2);
  EXPECT_DOUBLE_EQ(h.window_repeats, (12.0 / 2 + 4) / (4.0 / 2 + 4));
  // A kind whose points measure no windows (idle) keeps 1; the count is per board.
  model.record_job("idle", 5, 5);
  EXPECT_DOUBLE_EQ(model.history("idle").window_repeats, 1.0);
  EXPECT_EQ(model.history("idle").jobs, 1);
  EXPECT_EQ(jobs::cost_model(&costs, "other").history("gemm").jobs, 0);
}

TEST(cost_model, runs_vary_as_the_recorded_points_nearest_in_work_did) {
  jobs::cost_model model(nullptr, "board");
  EXPECT_NEAR(model.run("gemm", cost(1e6)).cv, 0.05, 1e-12) << "a quiet machine's, before anything is measured";
  // Small runs on a throttled simulated core are bimodal (most fast, one in many stalled for a
  // quota period); large ones are smooth.
  for (double work : {1e5, 2e5, 4e5}) model.record_run("gemm", cost(work), work / 1e9, 12.0);
  for (double work : {1e9, 2e9, 4e9}) model.record_run("gemm", cost(work), work / 1e9, 0.02);
  EXPECT_DOUBLE_EQ(model.run("gemm", cost(3e5)).cv, 12.0);
  EXPECT_DOUBLE_EQ(model.run("gemm", cost(8e9)).cv, 0.02);
}
