#include <jetperf/jobs/job_progress.hpp>

#include <algorithm>
#include <cmath>

namespace jetperf::jobs {

namespace {
constexpr std::int64_t k_estimate_period_ns = 2'000'000'000;
// What past jobs weigh against this job's own finished points, in points: half of one, so that
// the first finished point already leads (a loaded host is slower now than it was, and the
// estimate must follow what it sees) while one odd point does not decide alone.
constexpr double k_prior_points = 0.5;
// A change of the windows per point smaller than this does not take the estimate again early.
constexpr double k_repeats_change = 0.05;
}  // namespace

job_progress::job_progress(estimate_fn estimate, prior before, std::size_t first, std::int64_t now_ns)
    : estimate_(std::move(estimate)),
      prior_(std::move(before)),
      first_(first),
      last_point_ns_(now_ns),
      last_estimate_ns_(now_ns) {
  estimate_again();
}

double job_progress::window_repeats() const {
  return (windows_ + k_prior_points * prior_.window_repeats) / (window_points_ + k_prior_points);
}

store::estimate_basis job_progress::basis() const {
  return points_ > 0 ? store::estimate_basis{"pace", points_} : prior_.basis;
}

void job_progress::estimate_again(std::optional<double> repeats) {
  estimated_repeats_ = repeats ? *repeats : window_repeats();
  const auto predicted = estimate_(estimated_repeats_);
  left_after_.assign(predicted.size() + 1, 0.0);
  for (auto j = predicted.size(); j-- > 0;) left_after_[j] = left_after_[j + 1] + predicted[j];
}

double job_progress::point_done(std::size_t index, std::int64_t now_ns, std::optional<double> windows) {
  actual_s_ += static_cast<double>(now_ns - last_point_ns_) / 1e9;
  last_point_ns_ = now_ns;
  ++points_;
  if (windows && *windows >= 1) {
    windows_ += *windows;
    window_points_ += 1;
  }
  // The first point taught the cost model its runs; later ones mostly confirm them.
  const bool repeats_moved = std::fabs(window_repeats() - estimated_repeats_) > k_repeats_change * estimated_repeats_;
  if (points_ == 1 || repeats_moved || now_ns - last_estimate_ns_ > k_estimate_period_ns) {
    estimate_again();
    last_estimate_ns_ = now_ns;
  }
  const auto last = left_after_.size() - 1;
  const auto done = std::min(index + 1, last);
  const double left = left_after_[done];
  const auto from = std::min(first_, last);
  const double predicted_done = left_after_[from] - left;
  // Past jobs weigh as half of this job's average point.
  const double mean_point_s = left_after_[from] / static_cast<double>(std::max<std::size_t>(1, last - from));
  const double prior_weight_s = k_prior_points * mean_point_s + 1e-9;
  const double pace = (actual_s_ + prior_.factor * prior_weight_s) / (predicted_done + prior_weight_s);
  return left * pace;
}

double job_progress::estimated_s(std::size_t end) {
  // With the windows the points measured as they are: what the job's end teaches the model.
  estimate_again(window_points_ > 0 ? std::optional<double>(windows_ / window_points_) : std::nullopt);
  const auto last = left_after_.size() - 1;
  return left_after_[std::min(first_, last)] - left_after_[std::min(end, last)];
}

}  // namespace jetperf::jobs
