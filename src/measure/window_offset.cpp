#include <jetperf/measure/window_offset.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace jetperf::measure {

namespace {

struct profile_point {
  double rss_per_row = 0;
  double sigma2 = 0;  ///< the residual variance there
  std::size_t rows = 0;
};

}  // namespace

std::vector<power_reading> shifted_readings(std::vector<power_reading> readings, double offset_ns) {
  const auto by = static_cast<std::int64_t>(std::llround(offset_ns));
  for (auto& r : readings) r.end_ns += by;
  return readings;
}

window_offset_fit fit_window_offset(layer_power_estimator& est, const std::vector<power_reading>& readings,
                                    double earliest_ns, double latest_ns, double step_ns) {
  window_offset_fit out;
  std::map<double, profile_point> profile;
  const auto at = [&](double offset) {
    const auto key = std::round(offset);
    if (profile.count(key)) return;
    est.set_readings(shifted_readings(readings, key));
    const auto f = est.fit();
    ++out.solves;
    if (f.rows == 0 || f.residual_dof == 0) return;
    // Per reading: a shift moves a few readings in or out of the system (those beside the
    // caller's excluded time).
    profile[key] = {f.rss / static_cast<double>(f.rows), f.rss / static_cast<double>(f.residual_dof), f.rows};
  };
  const auto best = [&] {
    return std::min_element(profile.begin(), profile.end(),
                            [](const auto& a, const auto& b) { return a.second.rss_per_row < b.second.rss_per_row; });
  };
  if (!(latest_ns > earliest_ns) || !(step_ns > 0)) return out;
  for (double o = earliest_ns; o <= latest_ns + step_ns / 2; o += step_ns) at(std::min(o, latest_ns));
  at(0.0);
  if (profile.empty()) {
    est.set_readings(readings);
    return out;
  }
  const double coarse = best()->first;
  for (double o = std::max(coarse - step_ns, earliest_ns); o <= std::min(coarse + step_ns, latest_ns) + step_ns / 20;
       o += step_ns / 10)
    at(std::min(o, latest_ns));
  est.set_readings(readings);
  const auto b = best();
  out.offset_ns = b->first;
  // The sum's threshold per reading, in the best offset's rows.
  const double threshold = b->second.rss_per_row + 3.84 * b->second.sigma2 / static_cast<double>(b->second.rows);
  double lo = b->first, hi = b->first;
  for (const auto& [offset, p] : profile)
    if (p.rss_per_row <= threshold) lo = std::min(lo, offset), hi = std::max(hi, offset);
  out.half_width_ns = (hi - lo) / 2;
  const auto zero = profile.find(0.0);
  out.rss_gain = zero != profile.end() && b->second.rss_per_row > 0 ? zero->second.rss_per_row / b->second.rss_per_row : 1.0;
  return out;
}

}  // namespace jetperf::measure
