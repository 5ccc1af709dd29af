#include <jetperf/jobs/cost_model.hpp>

#include <algorithm>
#include <cmath>

namespace jetperf::jobs {

namespace {
// Newest runs a fit keeps in memory (as many as the store keeps).
constexpr std::size_t k_kept = static_cast<std::size_t>(store::cost_store::k_kept_per_class);
// How much runs vary when nothing was measured yet: a quiet machine's.
constexpr double k_prior_cv = 0.05;
// The variation of a new point is the median of this many recorded points nearest in work.
constexpr std::size_t k_cv_neighbours = 3;

double median_cv_near(const std::vector<store::run_cost_sample>& samples, double work) {
  std::vector<std::pair<double, double>> by_distance;  // |log work ratio|, cv
  for (const auto& s : samples)
    if (s.work > 0 && work > 0) by_distance.emplace_back(std::fabs(std::log(s.work / work)), s.cv);
  if (by_distance.empty()) return k_prior_cv;
  const auto n = std::min(k_cv_neighbours, by_distance.size());
  std::partial_sort(by_distance.begin(), by_distance.begin() + static_cast<std::ptrdiff_t>(n), by_distance.end());
  std::vector<double> cvs;
  for (std::size_t i = 0; i < n; ++i) cvs.push_back(by_distance[i].second);
  std::sort(cvs.begin(), cvs.end());
  return cvs[cvs.size() / 2];
}
}  // namespace

cost_model::cost_model(store::cost_store* store, std::string scope) : store_(store), scope_(std::move(scope)) {}

std::string cost_model::key_of(const measure::run_cost& c) {
  // Runs at a clock the point set and runs at whatever clock the governor chose do not share a fit.
  return c.clock_hz ? c.cls : c.cls + "|clock=free";
}

double cost_model::work_of(const measure::run_cost& c) {
  return c.clock_hz && *c.clock_hz > 0 ? c.work / *c.clock_hz : c.work;
}

cost_model::fit& cost_model::fit_of(const std::string& kind, const std::string& key) {
  auto& f = fits_[{kind, key}];
  if (!f.loaded) {
    if (store_) f.samples = store_->runs(scope_, kind, key);
    f.loaded = true;
    refit(f);
  }
  return f;
}

void cost_model::refit(fit& f) {
  // Weighted least squares of t = a + b*x with weights 1/t^2 (relative errors: a 10 us run and a
  // 1 s run count alike), a and b kept non-negative.
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& s : f.samples) {
    if (!(s.run_s > 0) || !(s.work >= 0)) continue;
    const double w = 1.0 / (s.run_s * s.run_s);
    sw += w;
    sx += w * s.work;
    sy += w * s.run_s;
    sxx += w * s.work * s.work;
    sxy += w * s.work * s.run_s;
  }
  f.a = f.b = 0;
  if (sw <= 0) return;
  const double det = sw * sxx - sx * sx;
  if (det > 1e-12 * sw * sxx) {
    f.a = (sy * sxx - sx * sxy) / det;
    f.b = (sw * sxy - sx * sy) / det;
  }
  if (!(det > 1e-12 * sw * sxx) || f.a < 0 || f.b < 0) {
    // One work size only, or a line through negative values: the proportional fit, or the mean.
    f.a = 0;
    f.b = sxx > 0 ? sxy / sxx : 0;
    if (f.b <= 0) {
      f.b = 0;
      f.a = sy / sw;
    }
  }
}

measure::run_time cost_model::run(const std::string& kind, const measure::run_cost& c) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto& f = fit_of(kind, key_of(c));
  if (f.samples.empty()) return {c.prior_s, k_prior_cv};
  const double t = f.a + f.b * work_of(c);
  return {t > 0 ? t : c.prior_s, median_cv_near(f.samples, work_of(c))};
}

void cost_model::record_run(const std::string& kind, const measure::run_cost& c, double run_s, double cv) {
  if (!(run_s > 0) || !std::isfinite(run_s)) return;
  const auto key = key_of(c);
  const store::run_cost_sample s{work_of(c), run_s, std::isfinite(cv) && cv > 0 ? cv : 0.0};
  std::lock_guard<std::mutex> lock(mutex_);
  auto& f = fit_of(kind, key);
  f.samples.push_back(s);
  if (f.samples.size() > k_kept) f.samples.erase(f.samples.begin());
  refit(f);
  if (store_) store_->add_run(scope_, kind, key, s);
}

cost_model::kind_history cost_model::history(const std::string& kind) const {
  kind_history h;
  if (!store_) return h;
  const auto c = store_->calibration(scope_, kind);
  h.jobs = c.jobs;
  if (c.predicted_s > 0 && c.actual_s > 0) h.calibration = std::clamp(c.actual_s / c.predicted_s, 0.25, 4.0);
  if (c.window_points > 0 && c.windows > 0)
    h.window_repeats = std::clamp(c.windows / c.window_points, 1.0, k_max_window_repeats);
  return h;
}

double cost_model::calibration(const std::string& kind) const { return history(kind).calibration; }

void cost_model::record_job(const std::string& kind, double predicted_s, double actual_s, double windows,
                            double window_points) {
  if (!store_ || !(predicted_s > 0) || !(actual_s > 0)) return;
  store::cost_calibration job;
  job.predicted_s = predicted_s;
  job.actual_s = actual_s;
  job.windows = windows;
  job.window_points = window_points;
  store_->add_calibration(scope_, kind, job);
}

measure::estimate_context cost_model::context(const std::string& kind, double sensor_update_s) {
  measure::estimate_context ctx;
  ctx.run = [this, kind](const measure::run_cost& c) { return run(kind, c); };
  ctx.sensor_update_s = sensor_update_s;
  return ctx;
}

}  // namespace jetperf::jobs
