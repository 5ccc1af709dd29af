#include <jetperf/measure/sensor_updates.hpp>

#include <algorithm>
#include <cmath>

namespace jetperf::measure {

namespace {

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

}  // namespace

sensor_update_fit fit_sensor_updates(const std::vector<std::pair<std::int64_t, double>>& samples, double nominal_period_s) {
  sensor_update_fit out;
  out.nominal_period_s = nominal_period_s;
  std::vector<std::pair<std::int64_t, double>> changes;
  for (std::size_t i = 1; i < samples.size(); ++i)
    if (samples[i].second != samples[i - 1].second) changes.push_back(samples[i]);
  out.changes = changes.size();
  if (changes.size() < 3) return out;

  const std::int64_t t0 = changes.front().first;
  double period_ns = nominal_period_s * 1e9;
  if (!(period_ns > 0)) {
    std::vector<double> gaps;
    for (std::size_t i = 1; i < changes.size(); ++i) gaps.push_back(static_cast<double>(changes[i].first - changes[i - 1].first));
    period_ns = quantile(gaps, 0.5);
  }
  if (!(period_ns > 0)) return out;

  // Update index of each change, counted from the gaps between changes (a gap of about two
  // periods is an update whose value happened not to change), so an oscillator a few percent off
  // its nominal period does not slip an index over a long stream; then a least-squares line
  // t = a + period * k through them.
  std::vector<std::int64_t> index(changes.size(), 0);
  for (std::size_t i = 1; i < changes.size(); ++i)
    index[i] = index[i - 1] + std::max<std::int64_t>(1, std::llround(static_cast<double>(changes[i].first - changes[i - 1].first) / period_ns));
  double a = 0;
  {
    double sk = 0, st = 0, skk = 0, skt = 0;
    const double n = static_cast<double>(changes.size());
    for (std::size_t i = 0; i < changes.size(); ++i) {
      const double k = static_cast<double>(index[i]), t = static_cast<double>(changes[i].first - t0);
      sk += k, st += t, skk += k * k, skt += k * t;
    }
    const double den = n * skk - sk * sk;
    if (den > 0) {
      period_ns = (n * skt - sk * st) / den;
      a = (st - period_ns * sk) / n;
    }
  }
  out.period_s = period_ns * 1e-9;

  // The earliest detections are the ones read right after the update: the fitted clock is placed
  // there (5th percentile of the lateness), not at the mean, which a poll period would bias.
  std::vector<double> late;
  late.reserve(changes.size());
  for (std::size_t i = 0; i < changes.size(); ++i)
    late.push_back(static_cast<double>(changes[i].first - t0) - (a + period_ns * static_cast<double>(index[i])));
  const double offset = quantile(late, 0.05);
  std::vector<double> lateness;
  std::int64_t last_index = -1;
  for (std::size_t i = 0; i < changes.size(); ++i) {
    if (i > 0 && index[i] <= last_index) {
      ++out.extra_changes;
      continue;
    }
    last_index = index[i];
    const auto at = t0 + std::llround(a + offset + period_ns * static_cast<double>(index[i]));
    out.readings.push_back({at, changes[i].second});
    lateness.push_back(static_cast<double>(changes[i].first - at) * 1e-9);
  }
  out.lateness_median_s = quantile(lateness, 0.5);
  out.lateness_iqr_s = quantile(lateness, 0.75) - quantile(lateness, 0.25);
  return out;
}

}  // namespace jetperf::measure
