#include <jetperf/stats/rse_projection.hpp>

#include <algorithm>
#include <cmath>

namespace jetperf::stats {

void rse_projection::add(double elapsed_s, double rse) {
  if (!(elapsed_s > 0) || !std::isfinite(rse) || !(rse > 0)) return;
  last_ = {elapsed_s, rse};
  any_ = true;
  if (kept_.empty() || elapsed_s >= kept_.back().t * 1.1) kept_.push_back(last_);
}

std::optional<double> rse_projection::at(double horizon_s) const {
  if (!any_ || kept_.empty() || kept_.front().t * 2 > last_.t) return std::nullopt;
  if (horizon_s <= last_.t) return last_.rse;
  // The latest checkpoint at or before half the time elapsed: the trend of the window's later half.
  const checkpoint* from = &kept_.front();
  for (const auto& c : kept_)
    if (c.t * 2 <= last_.t) from = &c;
  const double slope = std::log(last_.rse / from->rse) / std::log(last_.t / from->t);
  const double hopeful = std::min(slope, -0.5);
  return last_.rse * std::pow(horizon_s / last_.t, hopeful);
}

}  // namespace jetperf::stats
