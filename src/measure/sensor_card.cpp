#include <jetperf/measure/sensor_card.hpp>

#include <algorithm>
#include <cmath>

namespace jetperf::measure {
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

// A step's levels need a clear gap between them: ten times the spread of either level's
// readings, so the noise cannot pass for part of the step.
constexpr double k_min_step_over_noise = 10;
// Readings this close to either level are the level, not part of the step.
constexpr double k_level_margin = 0.03;

void add_transitions(const std::vector<power_reading>& readings, std::int64_t edge_ns, std::int64_t half_ns,
                     std::vector<transition>& out) {
  const auto before = values_between(readings, edge_ns - half_ns / 2, edge_ns);
  const auto after = values_between(readings, edge_ns + half_ns / 2, edge_ns + half_ns);
  if (before.size() < 2 || after.size() < 2) return;
  const double lo = median_of(before), hi = median_of(after);
  double spread = 0;
  for (double v : before) spread = std::max(spread, std::abs(v - lo));
  for (double v : after) spread = std::max(spread, std::abs(v - hi));
  if (std::abs(hi - lo) < k_min_step_over_noise * spread || hi == lo) return;
  for (const auto& r : readings) {
    if (r.end_ns <= edge_ns || r.end_ns > edge_ns + half_ns / 2) continue;
    const double f = (r.watts - lo) / (hi - lo);
    if (f > k_level_margin && f < 1 - k_level_margin)
      out.push_back({f, static_cast<double>(r.end_ns - edge_ns) * 1e-9});
  }
}

}  // namespace

step_response fit_step_response(const std::vector<power_reading>& readings, const std::vector<load_edge>& edges,
                                double half_period_s) {
  step_response out;
  const auto half_ns = static_cast<std::int64_t>(half_period_s * 1e9);
  std::vector<transition> points;
  for (const auto& e : edges) add_transitions(readings, e.t_ns, half_ns, points);
  out.transitions = points.size();
  if (points.size() < 3) {
    out.unusable = "fewer than 3 readings caught part-way through a step of the load";
    return out;
  }
  // Least squares of after = delay + window x fraction.
  double sf = 0, st = 0;
  for (const auto& p : points) {
    sf += p.fraction;
    st += p.after_s;
  }
  const double n = static_cast<double>(points.size());
  const double mf = sf / n, mt = st / n;
  double sff = 0, sft = 0;
  for (const auto& p : points) {
    sff += (p.fraction - mf) * (p.fraction - mf);
    sft += (p.fraction - mf) * (p.after_s - mt);
  }
  if (!(sff > 0)) {
    out.unusable = "the readings part-way through a step all caught it at the same fraction";
    return out;
  }
  out.window_s = sft / sff;
  out.delay_s = mt - out.window_s * mf;
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

}  // namespace jetperf::measure
