#include <jetperf/measure/interval_power.hpp>

#include <algorithm>

namespace jetperf::measure {

namespace {

using point = std::pair<std::int64_t, double>;

// The series' value at t: linear between its neighbours, flat beyond its ends.
double value_at(const time_series& s, std::int64_t t) {
  auto hi = std::lower_bound(s.begin(), s.end(), t, [](const point& p, std::int64_t v) { return p.first < v; });
  if (hi == s.begin()) return s.front().second;
  if (hi == s.end()) return s.back().second;
  if (hi->first == t) return hi->second;
  const auto lo = hi - 1;
  const double f = static_cast<double>(t - lo->first) / static_cast<double>(hi->first - lo->first);
  return lo->second + f * (hi->second - lo->second);
}

}  // namespace

std::map<int, time_series> series_by_channel(const std::vector<telemetry::sample>& samples) {
  std::map<int, time_series> out;
  for (const auto& s : samples) out[s.channel].emplace_back(s.t_ns, s.value);
  for (auto& kv : out)
    std::stable_sort(kv.second.begin(), kv.second.end(), [](const point& a, const point& b) { return a.first < b.first; });
  return out;
}

std::optional<double> interval_mean(const time_series& s, std::int64_t from_ns, std::int64_t to_ns) {
  if (s.empty()) return std::nullopt;
  if (to_ns <= from_ns) return value_at(s, from_ns);
  // The breakpoints inside the interval, plus its two ends: trapezoids between them are exact
  // for a piecewise-linear function.
  std::vector<point> knots{{from_ns, value_at(s, from_ns)}};
  for (const auto& p : s)
    if (p.first > from_ns && p.first < to_ns) knots.push_back(p);
  knots.emplace_back(to_ns, value_at(s, to_ns));
  double area = 0;
  for (std::size_t i = 1; i < knots.size(); ++i)
    area += 0.5 * (knots[i].second + knots[i - 1].second) * static_cast<double>(knots[i].first - knots[i - 1].first);
  return area / static_cast<double>(to_ns - from_ns);
}

std::size_t points_within(const time_series& s, std::int64_t from_ns, std::int64_t to_ns) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [&](const point& p) {
    return p.first >= from_ns && p.first <= to_ns;
  }));
}

}  // namespace jetperf::measure
