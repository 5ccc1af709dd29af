// How long jobs take: the kind's estimate of each point over the run times this board measured,
// the sensor's update period, the whole job's calibration, and the running job's pace.
#include <jetperf/jobs/eta_estimator.hpp>

#include <gtest/gtest.h>

#include "support/fake_sources.hpp"
#include "support/json_kind.hpp"
#include <jetperf/store/database.hpp>

using namespace jetperf;
using nlohmann::json;

namespace {

constexpr std::int64_t s = 1'000'000'000;

measure::run_cost cost_of(double work) {
  measure::run_cost c;
  c.cls = "cpu/float";
  c.work = work;
  c.prior_s = 1.0;
  return c;
}

// Point i takes `runs` runs of a 1e9-work class (the model's time for it) plus i seconds, one
// sensor update and a `window_s` window each time it is measured.
class timed_kind final : public test::json_kind {
 public:
  std::string kind() const { return "timed"; }
  json parse(const record& spec, const platform::board_offer&) const { return jetperf::to_json(spec); }
  std::vector<json> expand(const json& spec) const {
    std::vector<json> p;
    for (int i = 0; i < spec["points"].get<int>(); ++i) p.push_back({{"i", i}});
    return p;
  }
  std::vector<double> estimate_points_s(const json& spec, const std::vector<json>& points,
                                        const measure::estimate_context& ctx) const {
    std::vector<double> out;
    for (const auto& p : points)
      out.push_back(spec.value("runs", 0) * ctx.run(cost_of(1e9)).mean_s + p["i"].get<double>() + ctx.sensor_update_s +
                    spec.value("window_s", 0.0) * ctx.window_repeats);
    return out;
  }
  measure::point_result run_point(measure::point_context&, const json&, const json&) { return {}; }
};

struct fixture {
  store::database db{":memory:"};
  std::unique_ptr<jobs::workload> kind = jobs::make_workload(timed_kind{});
  std::unique_ptr<jobs::job_plan> plan_of(const json& spec) { return kind->plan(kind->normalize(record_of(spec), {})); }
};

}  // namespace

TEST(eta_estimator, sums_the_kinds_estimate_of_each_point) {
  fixture f;
  jobs::eta_estimator eta(f.db, "board", nullptr);
  const auto plan = f.plan_of({{"points", 3}});
  EXPECT_EQ(eta.estimate_points(*f.kind, *plan), (std::vector<double>{0, 1, 2}));
  EXPECT_DOUBLE_EQ(eta.estimate_job(*f.kind, *plan), 3.0);
}

TEST(eta_estimator, feeds_the_kind_the_measured_run_times_and_the_sensors_update_period) {
  fixture f;
  test::fake_source telemetry;
  telemetry.update_ns = 250'000'000;
  jobs::eta_estimator eta(f.db, "board", &telemetry);
  const auto plan = f.plan_of({{"points", 2}, {"runs", 10}});
  // No history: the kind's guess for a run (1 s).
  EXPECT_EQ(eta.estimate_points(*f.kind, *plan), (std::vector<double>{10.25, 11.25}));
  // A run measured at 0.5 s: the model's time for the class from then on.
  eta.record_run("timed", cost_of(1e9), 0.5, 0.01);
  const auto learned = eta.estimate_points(*f.kind, *plan);
  ASSERT_EQ(learned.size(), 2u);
  EXPECT_NEAR(learned[0], 5.25, 1e-9);
  EXPECT_NEAR(learned[1], 6.25, 1e-9);
  EXPECT_NEAR(eta.estimate_job(*f.kind, *plan), 11.5, 1e-9);
}

TEST(eta_estimator, a_job_that_took_twice_its_estimate_doubles_the_next_ones) {
  fixture f;
  jobs::eta_estimator eta(f.db, "board", nullptr);
  const auto plan = f.plan_of({{"points", 4}});  // 0 + 1 + 2 + 3 = 6 s
  auto progress = eta.progress_of(*f.kind, *plan, 0, 0);
  for (std::size_t i = 0; i < 4; ++i) progress.point_done(i, static_cast<std::int64_t>(3 * (i + 1)) * s);
  EXPECT_DOUBLE_EQ(progress.actual_s(), 12.0);
  eta.learn_job("timed", progress, 4);
  EXPECT_DOUBLE_EQ(eta.estimate_job(*f.kind, *plan), 12.0);
  // The next job's pace starts from it: after point 0 (0 s estimated, 1 s taken), with half an
  // average point (0.75 s) weighing the calibration of 2: (1 + 2 x 0.75) / (0 + 0.75) over the 6 s left.
  auto next = eta.progress_of(*f.kind, *plan, 0, 0);
  EXPECT_NEAR(next.point_done(0, 1 * s), 6.0 * 2.5 / 0.75, 1e-6);
  // Scoped by board: another board has no history.
  EXPECT_DOUBLE_EQ(jobs::eta_estimator(f.db, "other", nullptr).estimate_job(*f.kind, *plan), 6.0);
}

TEST(eta_estimator, a_job_with_no_finished_point_teaches_nothing_and_the_calibration_is_bounded) {
  fixture f;
  jobs::eta_estimator eta(f.db, "board", nullptr);
  const auto plan = f.plan_of({{"points", 4}});
  auto idle = eta.progress_of(*f.kind, *plan, 0, 0);
  eta.learn_job("timed", idle, 0);
  EXPECT_DOUBLE_EQ(eta.estimate_job(*f.kind, *plan), 6.0);
  // Ten times slower than estimated: at most four times the estimate.
  auto slow = eta.progress_of(*f.kind, *plan, 0, 0);
  slow.point_done(3, 60 * s);
  eta.learn_job("timed", slow, 4);
  EXPECT_DOUBLE_EQ(eta.estimate_job(*f.kind, *plan), 24.0);
}

TEST(eta_estimator, says_what_its_estimate_is_made_from_and_counts_the_jobs_it_learned_from) {
  fixture f;
  jobs::eta_estimator eta(f.db, "board", nullptr);
  const auto plan = f.plan_of({{"points", 2}});
  EXPECT_EQ(eta.basis_of("timed"), (store::estimate_basis{"static", 0})) << "nothing learned yet";
  auto progress = eta.progress_of(*f.kind, *plan, 0, 0);
  EXPECT_EQ(progress.basis(), (store::estimate_basis{"static", 0}));
  progress.point_done(0, 1 * s);
  EXPECT_EQ(progress.basis(), (store::estimate_basis{"pace", 1}));
  progress.point_done(1, 2 * s);
  eta.learn_job("timed", progress, 2);
  EXPECT_EQ(eta.basis_of("timed"), (store::estimate_basis{"cost_model", 1}));
  auto again = eta.progress_of(*f.kind, *plan, 0, 0);
  again.point_done(1, 3 * s);
  eta.learn_job("timed", again, 2);
  EXPECT_EQ(eta.basis_of("timed"), (store::estimate_basis{"cost_model", 2}));
  EXPECT_EQ(eta.progress_of(*f.kind, *plan, 0, 0).basis(), (store::estimate_basis{"cost_model", 2}));
  // Per board and kind.
  EXPECT_EQ(jobs::eta_estimator(f.db, "other", nullptr).basis_of("timed"), (store::estimate_basis{"static", 0}));
  EXPECT_EQ(eta.basis_of("gemm"), (store::estimate_basis{"static", 0}));
}

TEST(eta_estimator, the_windows_a_loaded_boards_points_measured_start_the_next_jobs_estimate) {
  fixture f;
  jobs::eta_estimator eta(f.db, "board", nullptr);
  const auto plan = f.plan_of({{"points", 2}, {"window_s", 1.0}});  // 0 + 1 s and 1 + 1 s
  EXPECT_DOUBLE_EQ(eta.estimate_job(*f.kind, *plan), 3.0);
  // A job whose every window was contended and measured twice more, its points taking what
  // three windows take: the windows explain it all, the calibration stays 1.
  auto progress = eta.progress_of(*f.kind, *plan, 0, 0);
  progress.point_done(0, 3 * s, 3.0);
  progress.point_done(1, 7 * s, 3.0);
  EXPECT_NEAR(progress.window_repeats(), 6.5 / 2.5, 1e-12);
  eta.learn_job("timed", progress, 2);
  // The next job counts its three windows per point from its submission on: 3 + 4 s, as the last
  // one took (its calibration, against its estimate with the windows it measured, is 1).
  EXPECT_NEAR(eta.estimate_points(*f.kind, *plan)[1], 1 + 3.0, 1e-9);
  EXPECT_NEAR(eta.estimate_job(*f.kind, *plan), 7.0, 1e-9);
  // An explicit count overrides it (the running job's own).
  EXPECT_DOUBLE_EQ(eta.estimate_points(*f.kind, *plan, 1.0)[1], 2.0);
}
