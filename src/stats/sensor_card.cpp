#include <jetperf/stats/sensor_card.hpp>

#include <algorithm>
#include <cmath>

#include <jetperf/stats/sensor_updates.hpp>

namespace jetperf::stats {
namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  const auto mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2) return upper;
  return (upper + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid))) / 2;
}

// The readings whose update fell in (from_ns, to_ns].
std::vector<double> values_between(const std::vector<power_reading>& readings, std::int64_t from_ns, std::int64_t to_ns) {
  std::vector<double> out;
  for (const auto& r : readings)
    if (r.end_ns > from_ns && r.end_ns <= to_ns) out.push_back(r.watts);
  return out;
}

// One reading part-way through a step: where in the step (0..1) and how long after the edge.
struct transition {
  double fraction;
  double after_s;
};

// A step's levels need a clear gap between them: four times the spread of either level's
// readings (a few each), so the noise cannot pass for part of the step.
constexpr double k_min_step_over_noise = 4;
// Readings this close to either level are the level, not part of the step.
constexpr double k_level_margin = 0.03;

// Every reading in the first half of the half-period after the edge, with where in the step it
// stands (0: the level before, 1: the level after, noise either way). Returns how many stood
// part-way through it.
std::size_t add_transitions(const std::vector<power_reading>& readings, std::int64_t edge_ns, std::int64_t half_ns,
                            std::vector<transition>& out) {
  const auto before = values_between(readings, edge_ns - half_ns / 2, edge_ns);
  const auto after = values_between(readings, edge_ns + half_ns / 2, edge_ns + half_ns);
  if (before.size() < 2 || after.size() < 2) return 0;
  const double lo = median_of(before), hi = median_of(after);
  double spread = 0;
  for (double v : before) spread = std::max(spread, std::abs(v - lo));
  for (double v : after) spread = std::max(spread, std::abs(v - hi));
  if (std::abs(hi - lo) < k_min_step_over_noise * spread || hi == lo) return 0;
  std::size_t part_way = 0;
  for (const auto& r : readings) {
    if (r.end_ns <= edge_ns || r.end_ns > edge_ns + half_ns / 2) continue;
    const double f = (r.watts - lo) / (hi - lo);
    out.push_back({f, static_cast<double>(r.end_ns - edge_ns) * 1e-9});
    if (f > k_level_margin && f < 1 - k_level_margin) ++part_way;
  }
  return part_way;
}

// How far the readings stand from a step that ramps from `delay` to `delay + window` after the
// edge (a reading averaging a window that ended `delay` before it was seen): the sum of absolute
// differences, which a reading the driver wrote late moves no more than by its own error.
double misfit(const std::vector<transition>& points, double delay_s, double window_s) {
  double sum = 0;
  for (const auto& p : points) sum += std::abs(p.fraction - std::clamp((p.after_s - delay_s) / window_s, 0.0, 1.0));
  return sum;
}

// Where a ramp may lie: a delay from a little before the window's end (a change is placed half
// way between the polls around it) to a whole period, a window of a quarter of a period to two.
struct ramp_bounds {
  double min_delay_s = -1e9, max_delay_s = 1e9, min_window_s = 0, max_window_s = 1e9;
  bool inside(double delay, double window) const {
    return delay >= min_delay_s && delay <= max_delay_s && window >= min_window_s && window <= max_window_s;
  }
  // Within `tolerance` of an edge: the fit ran into a bound, not into the data's best.
  bool at_edge(const std::pair<double, double>& r, double tolerance) const {
    return r.first - min_delay_s < tolerance || max_delay_s - r.first < tolerance ||
           r.second - min_window_s < tolerance || max_window_s - r.second < tolerance;
  }
};

// The (delay, window) of least misfit on a grid around `at`, `steps` either way of `step`.
std::pair<double, double> best_ramp(const std::vector<transition>& points, std::pair<double, double> at, double step,
                                    int steps, const ramp_bounds& bounds) {
  std::pair<double, double> best = at;
  double least = bounds.inside(at.first, at.second) ? misfit(points, at.first, at.second) : 1e300;
  for (int i = -steps; i <= steps; ++i)
    for (int j = -steps; j <= steps; ++j) {
      const double delay = at.first + i * step, window = at.second + j * step;
      if (window < step || !bounds.inside(delay, window)) continue;
      const double m = misfit(points, delay, window);
      if (m < least) least = m, best = {delay, window};
    }
  return best;
}

// Each change as a reading, at the middle of the two polls it fell between: when a reader first
// saw the update, which is what a lag means to a reader (the regular clock the period is fitted to
// would place an update the driver wrote late at its due time).
std::vector<power_reading> seen_changes(const std::vector<std::pair<std::int64_t, double>>& polls) {
  std::vector<power_reading> out;
  for (std::size_t i = 1; i < polls.size(); ++i)
    if (polls[i].second != polls[i - 1].second)
      out.push_back({polls[i - 1].first + (polls[i].first - polls[i - 1].first) / 2, polls[i].second});
  return out;
}

double median_spacing_s(const std::vector<std::pair<std::int64_t, double>>& polls) {
  std::vector<double> gaps;
  for (std::size_t i = 1; i < polls.size(); ++i) gaps.push_back(static_cast<double>(polls[i].first - polls[i - 1].first) * 1e-9);
  return median_of(std::move(gaps));
}

// How much of a period after an update's first change its last part may still arrive.
constexpr double k_torn_fraction = 0.6;

}  // namespace

step_response fit_step_response(const std::vector<power_reading>& readings, const std::vector<load_edge>& edges,
                                double half_period_s, double period_s, double poll_s) {
  step_response out;
  const auto half_ns = static_cast<std::int64_t>(half_period_s * 1e9);
  std::vector<transition> points;
  for (const auto& e : edges) out.transitions += add_transitions(readings, e.t_ns, half_ns, points);
  if (out.transitions < 3) {
    out.unusable = "fewer than 3 readings caught part-way through a step of the load";
    return out;
  }
  // The ramp fitted to every reading after each edge, those at either level too, by least
  // absolute misfit. (A line through the readings part-way only, as the card once fitted, takes
  // noise for position: a reading at a level that noise lifts past the margin joins the line at
  // the wrong end, and on a channel whose step is a few times its noise, Thor's VIN, the window
  // came out 10-20% wide.) Coarse over a window of up to half the readings' reach, then finer.
  const double reach_s = half_period_s / 2;
  ramp_bounds bounds;
  bounds.max_window_s = reach_s;
  if (period_s > 0) {
    // A reading averages its chip's conversion (a window about its period) and is seen after it
    // ends: a fit past these is noise passing for a step (a rail the load barely moves).
    bounds = {-poll_s / 2 - 1e-4, period_s, period_s / 4, std::min(2 * period_s, reach_s)};
  }
  const auto start = period_s > 0 ? std::pair<double, double>{0.0, period_s} : std::pair<double, double>{reach_s / 4, reach_s / 2};
  auto fit = best_ramp(points, start, reach_s / 80, 80, bounds);
  fit = best_ramp(points, fit, reach_s / 1600, 20, bounds);
  fit = best_ramp(points, fit, reach_s / 32000, 20, bounds);
  if (period_s > 0 && bounds.at_edge(fit, reach_s / 1600)) {
    out.unusable = "the step is too small against the channel's noise to fit a ramp within a period's delay and "
                   "window";
    return out;
  }
  out.delay_s = fit.first;
  out.window_s = fit.second;
  out.lag_s = out.delay_s + out.window_s / 2;
  return out;
}

std::optional<double> smallest_step(std::vector<double> values, double floor) {
  std::sort(values.begin(), values.end());
  std::optional<double> best;
  for (std::size_t i = 1; i < values.size(); ++i) {
    const double d = values[i] - values[i - 1];
    if (d > floor && (!best || d < *best)) best = d;
  }
  return best;
}

std::optional<double> repeat_read_fraction(const std::vector<std::pair<std::int64_t, double>>& polls,
                                           std::int64_t update_ns, double period_s, double lateness_s) {
  if (!(period_s > 0)) return std::nullopt;
  const double period_ns = period_s * 1e9;
  // The update a poll can have seen: the last one at least `lateness` before it.
  const auto update_of = [&](std::int64_t t) {
    return std::floor((static_cast<double>(t - update_ns) - lateness_s * 1e9) / period_ns);
  };
  std::size_t pairs = 0, same = 0;
  for (std::size_t i = 1; i < polls.size(); ++i) {
    if (update_of(polls[i - 1].first) != update_of(polls[i].first)) continue;
    ++pairs;
    if (polls[i - 1].second == polls[i].second) ++same;
  }
  if (pairs == 0) return std::nullopt;
  return static_cast<double>(same) / static_cast<double>(pairs);
}

std::vector<std::pair<std::int64_t, double>> merge_torn_updates(std::vector<std::pair<std::int64_t, double>> polls,
                                                                std::int64_t within_ns) {
  std::size_t start = 0;  // the poll that first saw the update under way
  bool seen = false;
  for (std::size_t i = 1; i < polls.size(); ++i) {
    if (polls[i].second == polls[i - 1].second) continue;
    if (seen && polls[i].first - polls[start].first < within_ns) {
      for (std::size_t k = start; k < i; ++k) polls[k].second = polls[i].second;
      continue;
    }
    start = i;
    seen = true;
  }
  return polls;
}

read_latency summarize_read_latency(std::vector<double> durations_s) {
  read_latency out;
  out.reads = durations_s.size();
  if (durations_s.empty()) return out;
  std::sort(durations_s.begin(), durations_s.end());
  out.median_s = median_of(durations_s);
  // Nearest rank: the smallest duration that 99% of the reads do not exceed.
  const auto rank = static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(durations_s.size())));
  out.p99_s = durations_s[std::max<std::size_t>(rank, 1) - 1];
  return out;
}

channel_card card_of_channel(const std::vector<std::pair<std::int64_t, double>>& polls,
                             const std::vector<load_edge>& edges, double half_period_s, double nominal_period_s) {
  channel_card out;
  std::vector<double> values;
  values.reserve(polls.size());
  for (const auto& p : polls) values.push_back(p.second);
  out.resolution = smallest_step(values);
  // The next update is a period away, and a torn one is whole well before (a chip's driver
  // writes its files within a millisecond; a simulated board's thread, on a busy host, within
  // about half a period).
  const auto whole = nominal_period_s > 0
                         ? merge_torn_updates(polls, static_cast<std::int64_t>(nominal_period_s * 1e9 * k_torn_fraction))
                         : polls;
  const auto fit = fit_sensor_updates(whole, nominal_period_s);
  out.updates = fit.readings.size();
  if (!fit.unusable.empty() || !(fit.period_s > 0)) {
    out.period_unusable = fit.unusable.empty() ? "too few changes to fit an update clock" : fit.unusable;
    out.step.unusable = out.period_unusable;
    return out;
  }
  out.period_s = fit.period_s;
  out.repeat_fraction = repeat_read_fraction(whole, fit.update_ns, fit.period_s, fit.lateness_median_s);
  out.step = fit_step_response(seen_changes(whole), edges, half_period_s, fit.period_s, median_spacing_s(whole));
  return out;
}

}  // namespace jetperf::stats
