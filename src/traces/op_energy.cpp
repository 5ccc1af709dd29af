#include <jetperf/traces/op_energy.hpp>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <jetperf/traces/op_totals.hpp>

namespace jetperf::traces {

namespace {

using point = std::pair<std::int64_t, double>;

// The series' swing (max - min) within [from, to], its interpolated ends included.
double range_within(const time_series& s, std::int64_t from, std::int64_t to) {
  double lo = value_at(s, from), hi = lo;
  const double end = value_at(s, to);
  lo = std::min(lo, end);
  hi = std::max(hi, end);
  auto it = std::upper_bound(s.begin(), s.end(), from, [](std::int64_t v, const point& p) { return v < p.first; });
  for (; it != s.end() && it->first < to; ++it) {
    lo = std::min(lo, it->second);
    hi = std::max(hi, it->second);
  }
  return hi - lo;
}

std::int64_t median_spacing(const time_series& s) {
  if (s.size() < 2) return 0;
  std::vector<std::int64_t> gaps;
  for (std::size_t i = 1; i < s.size(); ++i) gaps.push_back(s[i].first - s[i - 1].first);
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
  return gaps[gaps.size() / 2];
}

// Sums of one row while intervals arrive.
struct accumulator {
  energy_row row;
  double energy = 0, sampling_var = 0, slope_sum = 0;
  bool has_energy = false;
};

class attributor {
 public:
  attributor(const alignment& a, const power_inputs& p) : a_(a), p_(p) {
    period_ = p.sensor_period_ns > 0 ? p.sensor_period_ns : (p.total ? median_spacing(*p.total) : 0);
  }

  void add(std::unordered_map<std::string, std::size_t>& index, std::vector<accumulator>& rows, const std::string& name,
           const trace_event& e) const {
    auto [it, inserted] = index.emplace(name, rows.size());
    if (inserted) rows.push_back({});
    auto& acc = rows[it->second];
    acc.row.name = name;
    ++acc.row.count;
    const std::int64_t from = e.ts_ns + a_.offset_ns, to = e.end_ns() + a_.offset_ns;
    const double dt = static_cast<double>(e.dur_ns) * 1e-9;
    acc.row.time_s += dt;
    if (period_ > 0 && e.dur_ns < period_) ++acc.row.short_intervals;
    for (const auto& [rail, s] : p_.rails)
      if (auto mean = interval_mean(s, from, to)) acc.row.rail_energy_j[rail] += *mean * dt;
    if (!p_.total || p_.total->empty()) return;
    const auto& s = *p_.total;
    if (from < s.front().first || to > s.back().first) ++acc.row.outside_samples;
    acc.has_energy = true;
    acc.energy += *interval_mean(s, from, to) * dt;
    const double overlap_s = static_cast<double>(std::min<std::int64_t>(e.dur_ns, period_)) * 1e-9;
    const double u_s = (range_within(s, from - period_, from + period_) + range_within(s, to - period_, to + period_)) *
                       overlap_s / 2;
    acc.sampling_var += u_s * u_s;
    acc.slope_sum += value_at(s, to) - value_at(s, from);
  }

  std::vector<energy_row> finish(std::vector<accumulator>& rows) const {
    std::vector<energy_row> out;
    for (auto& acc : rows) {
      auto& r = acc.row;
      if (acc.has_energy) {
        r.energy_j = acc.energy;
        if (r.time_s > 0) r.power_w = acc.energy / r.time_s;
        r.uncertainty_j = std::sqrt(acc.sampling_var) +
                          std::fabs(acc.slope_sum) * static_cast<double>(a_.uncertainty_ns) * 1e-9;
      }
      out.push_back(std::move(r));
    }
    std::sort(out.begin(), out.end(), [](const energy_row& x, const energy_row& y) {
      const double ex = x.energy_j.value_or(x.time_s), ey = y.energy_j.value_or(y.time_s);
      return ex != ey ? ex > ey : x.name < y.name;
    });
    return out;
  }

  std::int64_t period() const { return period_; }

 private:
  const alignment& a_;
  const power_inputs& p_;
  std::int64_t period_ = 0;
};

}  // namespace

energy_table attribute_energy(const trace& t, const op_tree& tree, const alignment& a, const power_inputs& power) {
  const attributor at(a, power);
  std::unordered_map<std::string, std::size_t> op_index, top_index, kernel_index;
  std::vector<accumulator> ops, top, kernels;
  for (const auto& node : tree.nodes) {
    const auto& e = t.events[node.event];
    at.add(op_index, ops, op_key(t.name_of(e)), e);
  }
  for (auto root : tree.roots) {
    const auto& e = t.events[tree.nodes[root].event];
    at.add(top_index, top, op_key(t.name_of(e)), e);
  }
  for (const auto& e : t.events)
    if (is_device(e.category)) at.add(kernel_index, kernels, t.name_of(e), e);
  energy_table out;
  out.ops = at.finish(ops);
  out.top_level = at.finish(top);
  out.kernels = at.finish(kernels);
  out.sensor_period_ns = at.period();
  return out;
}

}  // namespace jetperf::traces
