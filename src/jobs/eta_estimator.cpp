#include <jetperf/jobs/eta_estimator.hpp>

#include <utility>

namespace jetperf::jobs {

eta_estimator::eta_estimator(store::database& db, std::string scope, const telemetry::sample_source* telemetry)
    : costs_(db), telemetry_(telemetry), model_(&costs_, std::move(scope)) {}

std::vector<double> eta_estimator::estimate_points(const workload& w, const job_plan& plan) const {
  return plan.estimate_points_s(model_.context(w.kind(), telemetry_ ? telemetry_->update_period_s() : 0.0));
}

double eta_estimator::estimate_job(const workload& w, const job_plan& plan) const {
  double sum = 0;
  for (double t : estimate_points(w, plan)) sum += t;
  return sum * model_.calibration(w.kind());
}

job_progress eta_estimator::progress_of(const workload& w, const job_plan& plan, std::size_t first,
                                        std::int64_t now_ns) const {
  return job_progress([this, &w, &plan] { return estimate_points(w, plan); }, model_.calibration(w.kind()), first,
                      now_ns);
}

void eta_estimator::record_run(const std::string& kind, const measure::run_cost& cost, double run_s, double cv) {
  model_.record_run(kind, cost, run_s, cv);
}

void eta_estimator::learn_job(const std::string& kind, job_progress& progress, std::size_t points_ran) {
  // The kind's estimate against the time its points took, both with what this job taught the
  // model about its runs: what is left is the protocol's own error, which later jobs scale by.
  if (progress.actual_s() <= 0) return;
  model_.record_job(kind, progress.estimated_s(points_ran), progress.actual_s());
}

}  // namespace jetperf::jobs
