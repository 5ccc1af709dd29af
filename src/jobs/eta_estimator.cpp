#include <jetperf/jobs/eta_estimator.hpp>

#include <utility>

namespace jetperf::jobs {

eta_estimator::eta_estimator(store::database& db, std::string scope, const telemetry::sample_source* telemetry)
    : costs_(db), telemetry_(telemetry), model_(&costs_, std::move(scope)) {}

std::vector<double> eta_estimator::estimate_points(const workload& w, const job_plan& plan,
                                                   std::optional<double> window_repeats) const {
  auto ctx = model_.context(w.kind(), telemetry_ ? telemetry_->update_period_s() : 0.0);
  ctx.window_repeats = window_repeats ? *window_repeats : model_.history(w.kind()).window_repeats;
  return plan.estimate_points_s(ctx);
}

double eta_estimator::estimate_job(const workload& w, const job_plan& plan) const {
  const auto history = model_.history(w.kind());
  double sum = 0;
  for (double t : estimate_points(w, plan, history.window_repeats)) sum += t;
  return sum * history.calibration;
}

store::estimate_basis eta_estimator::basis_of(const std::string& kind) const {
  const auto jobs = model_.history(kind).jobs;
  return jobs > 0 ? store::estimate_basis{"cost_model", jobs} : store::estimate_basis{"static", 0};
}

job_progress eta_estimator::progress_of(const workload& w, const job_plan& plan, std::size_t first,
                                        std::int64_t now_ns) const {
  const auto history = model_.history(w.kind());
  job_progress::prior before;
  before.factor = history.calibration;
  before.window_repeats = history.window_repeats;
  before.basis = basis_of(w.kind());
  return job_progress([this, &w, &plan](double repeats) { return estimate_points(w, plan, repeats); }, before, first,
                      now_ns);
}

void eta_estimator::record_run(const std::string& kind, const measure::run_cost& cost, double run_s, double cv) {
  model_.record_run(kind, cost, run_s, cv);
}

void eta_estimator::learn_job(const std::string& kind, job_progress& progress, std::size_t points_ran) {
  // The kind's estimate against the time its points took, both with what this job taught the
  // model about its runs and windows: what is left is the protocol's own error, which later jobs
  // scale by.
  if (progress.actual_s() <= 0) return;
  model_.record_job(kind, progress.estimated_s(points_ran), progress.actual_s(), progress.windows(),
                    progress.window_points());
}

}  // namespace jetperf::jobs
