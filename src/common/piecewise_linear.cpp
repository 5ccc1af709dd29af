#include <jetperf/common/piecewise_linear.hpp>

#include <algorithm>

namespace jetperf {

namespace {
using point = std::pair<std::int64_t, double>;
}  // namespace

double value_at(const time_series& s, std::int64_t t) {
  auto hi = std::lower_bound(s.begin(), s.end(), t, [](const point& p, std::int64_t v) { return p.first < v; });
  if (hi == s.begin()) return s.front().second;
  if (hi == s.end()) return s.back().second;
  if (hi->first == t) return hi->second;
  const auto lo = hi - 1;
  const double f = static_cast<double>(t - lo->first) / static_cast<double>(hi->first - lo->first);
  return lo->second + f * (hi->second - lo->second);
}

std::optional<double> interval_mean(const time_series& s, std::int64_t from_ns, std::int64_t to_ns) {
  if (s.empty()) return std::nullopt;
  if (to_ns <= from_ns) return value_at(s, from_ns);
  // The breakpoints inside the interval, plus its two ends: trapezoids between them are exact
  // for a piecewise-linear function. Only the points inside are visited (binary search for the
  // first), so many short intervals over a long series stay cheap.
  auto it = std::upper_bound(s.begin(), s.end(), from_ns, [](std::int64_t v, const point& p) { return v < p.first; });
  point prev{from_ns, value_at(s, from_ns)};
  double area = 0;
  for (; it != s.end() && it->first < to_ns; ++it) {
    area += 0.5 * (it->second + prev.second) * static_cast<double>(it->first - prev.first);
    prev = *it;
  }
  area += 0.5 * (value_at(s, to_ns) + prev.second) * static_cast<double>(to_ns - prev.first);
  return area / static_cast<double>(to_ns - from_ns);
}

std::size_t points_within(const time_series& s, std::int64_t from_ns, std::int64_t to_ns) {
  const auto lo = std::lower_bound(s.begin(), s.end(), from_ns, [](const point& p, std::int64_t v) { return p.first < v; });
  const auto hi = std::upper_bound(s.begin(), s.end(), to_ns, [](std::int64_t v, const point& p) { return v < p.first; });
  return hi > lo ? static_cast<std::size_t>(hi - lo) : 0;
}

}  // namespace jetperf
