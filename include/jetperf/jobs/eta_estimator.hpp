#pragma once
// How long jobs take: the kind's estimate of each point over the cost model's run times (what this
// board measured before) and the windows past jobs' points measured, a whole job's estimate scaled
// by how past jobs of the kind compared with theirs, and a running job's pace (job_progress),
// which teaches the model when the job ends. Each estimate says what it was made from (its
// basis). Submissions estimate on HTTP threads while the runner learns; the model locks.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/jobs/cost_model.hpp>
#include <jetperf/jobs/job_plan.hpp>
#include <jetperf/jobs/job_progress.hpp>
#include <jetperf/jobs/workload.hpp>
#include <jetperf/measure/run_cost.hpp>
#include <jetperf/store/cost_store.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::jobs {

class eta_estimator {
 public:
  /// The model's history lives in `db` under `scope` (the board's name); `telemetry` (may be
  /// null) gives the sensor's update period that the kinds' estimates read.
  eta_estimator(store::database& db, std::string scope, const telemetry::sample_source* telemetry);

  /// Seconds each point of `plan` will take (the kind's estimate over the model's run times) with
  /// each window measured `window_repeats` times (nullopt: as often as past jobs' were).
  std::vector<double> estimate_points(const workload& w, const job_plan& plan,
                                      std::optional<double> window_repeats = std::nullopt) const;
  /// The whole job's estimate: its points' sum, scaled by how past jobs of the kind compared.
  double estimate_job(const workload& w, const job_plan& plan) const;
  /// What estimate_job of a `kind` is made from: "cost_model" and the jobs it learned from on
  /// this board, or "static" before the first.
  store::estimate_basis basis_of(const std::string& kind) const;
  /// The pace of a job that measures `plan` from point `first` on, starting at `now_ns`; `w` and
  /// `plan` must outlive it (it estimates again as the model learns the job's runs).
  job_progress progress_of(const workload& w, const job_plan& plan, std::size_t first, std::int64_t now_ns) const;

  /// A point's runs of `cost` took `run_s` seconds on average, varying by `cv`.
  void record_run(const std::string& kind, const measure::run_cost& cost, double run_s, double cv);
  /// The job ended after `points_ran` points (from its first): teaches the kind's calibration
  /// how its estimate compared with the time they took, and the windows its points measured.
  /// Nothing to learn before a point ended.
  void learn_job(const std::string& kind, job_progress& progress, std::size_t points_ran);

 private:
  store::cost_store costs_;
  const telemetry::sample_source* telemetry_;
  mutable cost_model model_;  // learns on the runner, read by submissions
};

}  // namespace jetperf::jobs
