#include <jetperf/jobs/job_progress.hpp>

#include <algorithm>

namespace jetperf::jobs {

namespace {
constexpr std::int64_t k_estimate_period_ns = 2'000'000'000;
}  // namespace

job_progress::job_progress(std::function<std::vector<double>()> estimate, double prior_factor, std::size_t first,
                           std::int64_t now_ns)
    : estimate_(std::move(estimate)),
      prior_factor_(prior_factor),
      first_(first),
      last_point_ns_(now_ns),
      last_estimate_ns_(now_ns) {
  estimate_again();
}

void job_progress::estimate_again() {
  const auto predicted = estimate_();
  left_after_.assign(predicted.size() + 1, 0.0);
  for (auto j = predicted.size(); j-- > 0;) left_after_[j] = left_after_[j + 1] + predicted[j];
}

double job_progress::point_done(std::size_t index, std::int64_t now_ns) {
  actual_s_ += static_cast<double>(now_ns - last_point_ns_) / 1e9;
  last_point_ns_ = now_ns;
  if (now_ns - last_estimate_ns_ > k_estimate_period_ns) {
    estimate_again();
    last_estimate_ns_ = now_ns;
  }
  const auto done = std::min(index + 1, left_after_.size() - 1);
  const double left = left_after_[done];
  const double predicted_done = left_after_[std::min(first_, left_after_.size() - 1)] - left;
  // This job's own pace, weighted in as its finished points add up to a tenth of it (at most
  // 5 s): past jobs' calibration until then.
  const double prior_weight_s = std::min(5.0, 0.1 * left_after_[0]) + 1e-9;
  const double pace = (actual_s_ + prior_factor_ * prior_weight_s) / (predicted_done + prior_weight_s);
  return left * pace;
}

double job_progress::estimated_s(std::size_t end) {
  estimate_again();
  const auto last = left_after_.size() - 1;
  return left_after_[std::min(first_, last)] - left_after_[std::min(end, last)];
}

}  // namespace jetperf::jobs
