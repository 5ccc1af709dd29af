#include <jetperf/measure/power_window.hpp>

#include <algorithm>
#include <cmath>

#include <jetperf/stats/latency_stats.hpp>

namespace jetperf::measure {

std::vector<telemetry::sample> trim_window(const std::vector<telemetry::sample>& samples, std::int64_t from_ns,
                                           std::int64_t to_ns, double boundary_s) {
  const auto b = static_cast<std::int64_t>(std::max(0.0, boundary_s) * 1e9);
  const std::int64_t lo = from_ns + b;
  const std::int64_t hi = to_ns - b;
  std::vector<telemetry::sample> out;
  if (lo > hi) return out;
  for (const auto& s : samples)
    if (s.t_ns >= lo && s.t_ns <= hi) out.push_back(s);
  return out;
}

double trapezoid_integral(const std::vector<std::pair<std::int64_t, double>>& points) {
  double sum = 0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double dt = static_cast<double>(points[i].first - points[i - 1].first) * 1e-9;
    sum += 0.5 * (points[i].second + points[i - 1].second) * dt;
  }
  return sum;
}

power_summary summarize_window(const std::vector<telemetry::channel_info>& channels,
                               const std::vector<telemetry::sample>& samples, std::optional<int> total_channel,
                               std::size_t rse_batches) {
  std::map<int, std::vector<std::pair<std::int64_t, double>>> series;
  for (const auto& s : samples) {
    if (s.channel < 0 || s.channel >= static_cast<int>(channels.size())) continue;
    series[s.channel].emplace_back(s.t_ns, s.value);
  }
  power_summary out;
  for (auto& [ch, pts] : series) {
    std::stable_sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const auto& info = channels[static_cast<std::size_t>(ch)];
    channel_summary c;
    c.name = info.name;
    c.unit = info.unit;
    c.samples = pts.size();
    std::vector<double> values;
    values.reserve(pts.size());
    for (const auto& p : pts) values.push_back(p.second);
    double sum = 0;
    for (double v : values) sum += v;
    c.mean = sum / static_cast<double>(values.size());
    c.min = *std::min_element(values.begin(), values.end());
    c.max = *std::max_element(values.begin(), values.end());
    c.rse = stats::batch_means_rse(values, rse_batches);
    if (info.kind == telemetry::channel_kind::power) c.energy_j = trapezoid_integral(pts);
    if (info.kind == telemetry::channel_kind::temperature)
      out.temp_max_c = std::max(out.temp_max_c.value_or(c.max), c.max);
    if (total_channel && *total_channel == ch) {
      out.total_power_w = c.mean;
      out.total_energy_j = c.energy_j;
      out.total_rse = c.rse;
      out.total_samples = c.samples;
    }
    out.channels.emplace(ch, std::move(c));
  }
  return out;
}

window_power read_window_power(const telemetry::sample_source& source, std::int64_t from_ns, std::int64_t to_ns,
                               double boundary_s, std::size_t rse_batches) {
  window_power w;
  w.samples = trim_window(source.window(from_ns, to_ns), from_ns, to_ns, boundary_s);
  w.summary = summarize_window(source.channels(), w.samples, source.total_power_channel(), rse_batches);
  const auto b = static_cast<std::int64_t>(std::max(0.0, boundary_s) * 1e9);
  const std::int64_t lo = from_ns + b, hi = to_ns - b;
  // Asked after reading: what the source holds only shrinks, so the coverage is never overstated.
  const std::int64_t held = std::max(lo, source.complete_since_ns());
  w.window_s = hi > lo ? static_cast<double>(hi - lo) * 1e-9 : 0.0;
  w.covered_s = hi > held ? static_cast<double>(hi - held) * 1e-9 : 0.0;
  return w;
}

}  // namespace jetperf::measure
