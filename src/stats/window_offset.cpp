#include <jetperf/stats/window_offset.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace jetperf::stats {

namespace {

// The floor of placement_uncertainty_ns, as a share of the poll spacing. Against the simulated
// GPU's truth (tests/unit/measure/simulated_gpu.hpp) the fitted updates sat 22-27 us early with
// 1 ms polls, consistently: a bias of the phase the fit picks within the polls' brackets, which
// its phase uncertainty (0 there) does not count.
constexpr double k_placement_share_of_poll = 0.05;

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

double placement_uncertainty_ns(const sensor_update_fit& fit, const std::vector<std::pair<std::int64_t, double>>& polls) {
  std::vector<std::int64_t> gaps;
  for (std::size_t i = 1; i < polls.size(); ++i) gaps.push_back(polls[i].first - polls[i - 1].first);
  double poll_ns = 0;
  if (!gaps.empty()) {
    std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
    poll_ns = static_cast<double>(gaps[gaps.size() / 2]);
  }
  return std::max(fit.phase_uncertainty_s * 1e9, k_placement_share_of_poll * poll_ns);
}

void widen_for_placement(layer_power_estimator& est, const std::vector<power_reading>& readings, double shift_ns,
                         layer_power_result& res) {
  if (!(shift_ns > 0) || !res.unresolvable.empty()) return;
  const auto moved = [&](double by) {
    auto r = readings;
    for (auto& k : r) k.end_ns += static_cast<std::int64_t>(by);
    est.set_readings(std::move(r));
    return est.solve();
  };
  const auto later = moved(shift_ns), earlier = moved(-shift_ns);
  est.set_readings(readings);
  if (later.units.size() != res.units.size() || earlier.units.size() != res.units.size()) return;
  for (std::size_t u = 0; u < res.units.size(); ++u) {
    auto& unit = res.units[u];
    // Added, not in quadrature: every reading shares the placement's error, so it is a bound on
    // a bias of the whole estimate, not a noise the residuals' interval averages with (added in
    // quadrature, conv1 on the simulated Orin lay outside its interval in 10 of 100 jobs, 7 of
    // them 0.07-0.15 W low against intervals of 0.06-0.12 W; added, 1 of 100: docs/benchmarks.md).
    const double half = std::abs(later.units[u].power_w - earlier.units[u].power_w) / 2;
    unit.power_ci95_w += half;
    unit.placement_w = half;
    unit.energy_ci95_j = unit.power_ci95_w * unit.duration_s;
    res.converged = res.converged && unit.rel_half_width() <= est.options().target_rel;
  }
}

}  // namespace jetperf::stats
