#include <jetperf/traces/op_energy.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

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

// A rail no interval of the row had samples of: it stays out of the row's rail_energy_j.
const double k_no_energy = std::numeric_limits<double>::quiet_NaN();
constexpr std::uint32_t k_no_slot = std::numeric_limits<std::uint32_t>::max();

void add_energy(double& sum, double v) {
  if (std::isnan(v)) return;
  sum = std::isnan(sum) ? v : sum + v;
}

// Sums of one row while intervals arrive, without its name (the key says it) and with its rails
// in the table's flat array: a trace of 120 000 distinct names costs about 100 bytes per name
// and table until the table is cut.
struct accumulator {
  std::uint32_t key = 0;  // a name index of the trace (kernels), or an op key (rows_by_key)
  std::uint32_t count = 0, short_intervals = 0, outside_samples = 0, folded_names = 0;
  bool has_energy = false, host = false, label = false;
  double time_s = 0, energy = 0, sampling_var = 0, slope_sum = 0;
  double self_time_s = 0, self_energy = 0;

  double weight() const { return has_energy ? energy : time_s; }
};

// Op keys by name index: names are their own keys but for ProfilerStep#N, which all share the
// first one's (op_key), so no table of names is built.
struct op_keys {
  std::vector<std::uint32_t> of_name;
  std::uint32_t step = k_no_slot;  // the shared key of the ProfilerStep#N names
  explicit op_keys(const trace& t) : of_name(t.names.size()) {
    for (std::uint32_t i = 0; i < t.names.size(); ++i) {
      const bool is_step = op_key(t.names[i]) != t.names[i];
      if (is_step && step == k_no_slot) step = i;
      of_name[i] = is_step ? step : i;
    }
  }
  const std::string& name(const trace& t, std::uint32_t key) const {
    static const std::string k_steps = op_key("ProfilerStep#0");
    return key == step ? k_steps : t.names[key];
  }
};

// One table's rows while intervals arrive.
class table {
 public:
  table(std::size_t keys, std::size_t rails) : slot_of_key_(keys, k_no_slot), rails_(rails) {}

  accumulator& row(std::uint32_t key) {
    auto& slot = slot_of_key_[key];
    if (slot == k_no_slot) {
      slot = static_cast<std::uint32_t>(rows_.size());
      rows_.push_back({});
      rows_.back().key = key;
      rail_energy_.resize(rail_energy_.size() + rails_, k_no_energy);
    }
    return rows_[slot];
  }
  double& rail_energy(const accumulator& row, std::size_t rail) {
    return rail_energy_[static_cast<std::size_t>(&row - rows_.data()) * rails_ + rail];
  }

  // The largest max_rows rows as they are, then the rest summed into one.
  template <class Name, class Finish>
  std::vector<energy_row> finish(std::size_t max_rows, const Name& name_of, const Finish& finish_row) {
    slot_of_key_ = {};
    std::vector<std::uint32_t> order(rows_.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
      const double ex = rows_[x].weight(), ey = rows_[y].weight();
      return ex != ey ? ex > ey : name_of(rows_[x].key) < name_of(rows_[y].key);
    });
    const std::size_t kept = order.size() > max_rows + 1 ? max_rows : order.size();
    std::vector<energy_row> out;
    out.reserve(kept + 1);
    for (std::size_t i = 0; i < kept; ++i) out.push_back(finish_row(rows_[order[i]], name_of(rows_[order[i]].key), rails_of(order[i])));
    if (kept < order.size()) {
      accumulator rest;
      std::vector<double> rest_rails(rails_, k_no_energy);
      for (std::size_t i = kept; i < order.size(); ++i) {
        const auto& r = rows_[order[i]];
        rest.count += r.count;
        rest.short_intervals += r.short_intervals;
        rest.outside_samples += r.outside_samples;
        ++rest.folded_names;
        rest.time_s += r.time_s;
        rest.energy += r.energy;
        rest.self_time_s += r.self_time_s;
        rest.self_energy += r.self_energy;
        rest.host = rest.host || r.host;
        // The folded row's sampling part is the sum of its rows' (a bound), not their quadrature.
        rest.sampling_var = std::pow(std::sqrt(rest.sampling_var) + std::sqrt(r.sampling_var), 2);
        rest.slope_sum += std::fabs(r.slope_sum);
        rest.has_energy = rest.has_energy || r.has_energy;
        const auto rails = rails_of(order[i]);
        for (std::size_t k = 0; k < rails_; ++k) add_energy(rest_rails[k], rails[k]);
      }
      out.push_back(finish_row(rest, "(" + std::to_string(rest.folded_names) + " other names)", rest_rails.data()));
    }
    return out;
  }

 private:
  const double* rails_of(std::uint32_t slot) const { return rail_energy_.data() + static_cast<std::size_t>(slot) * rails_; }

  std::vector<std::uint32_t> slot_of_key_;
  std::vector<accumulator> rows_;
  std::vector<double> rail_energy_;  // rows x rails
  std::size_t rails_;
};

class attributor {
 public:
  attributor(const alignment& a, const power_inputs& p) : a_(a), p_(p) {
    period_ = p.sensor_period_ns > 0 ? p.sensor_period_ns : (p.total ? median_spacing(*p.total) : 0);
  }

  // Adds the event's interval to its row; returns the energy over it (0 without power).
  double add(table& rows, std::uint32_t key, const trace_event& e) const {
    auto& acc = rows.row(key);
    ++acc.count;
    acc.label = acc.label || e.category == event_category::user_annotation;
    const std::int64_t from = e.ts_ns + a_.offset_ns, to = e.end_ns() + a_.offset_ns;
    const double dt = static_cast<double>(e.dur_ns) * 1e-9;
    acc.time_s += dt;
    if (period_ > 0 && e.dur_ns < period_) ++acc.short_intervals;
    std::size_t rail = 0;
    for (const auto& kv : p_.rails) {
      if (auto mean = interval_mean(kv.second, from, to)) add_energy(rows.rail_energy(acc, rail), *mean * dt);
      ++rail;
    }
    if (!p_.total || p_.total->empty()) return 0;
    const auto& s = *p_.total;
    if (from < s.front().first || to > s.back().first) ++acc.outside_samples;
    acc.has_energy = true;
    const double energy = *interval_mean(s, from, to) * dt;
    acc.energy += energy;
    const double overlap_s = static_cast<double>(std::min<std::int64_t>(e.dur_ns, period_)) * 1e-9;
    const double u_s = (range_within(s, from - period_, from + period_) + range_within(s, to - period_, to + period_)) *
                       overlap_s / 2;
    acc.sampling_var += u_s * u_s;
    acc.slope_sum += value_at(s, to) - value_at(s, from);
    return energy;
  }

  // A host interval's own part: its time and energy less its children's.
  static void add_self(table& rows, std::uint32_t key, double self_time_s, double self_energy) {
    auto& acc = rows.row(key);
    acc.host = true;
    acc.self_time_s += self_time_s;
    acc.self_energy += self_energy;
  }

  energy_row row_of(const accumulator& acc, std::string name, const double* rails) const {
    energy_row r;
    r.name = std::move(name);
    r.count = acc.count;
    r.time_s = acc.time_s;
    r.short_intervals = acc.short_intervals;
    r.outside_samples = acc.outside_samples;
    r.folded_names = acc.folded_names;
    r.label = acc.label;
    if (acc.host) {
      r.self_time_s = acc.self_time_s;
      if (acc.has_energy) r.self_energy_j = acc.self_energy;
    }
    std::size_t rail = 0;
    for (const auto& kv : p_.rails) {
      if (!std::isnan(rails[rail])) r.rail_energy_j[kv.first] = rails[rail];
      ++rail;
    }
    if (acc.has_energy) {
      r.energy_j = acc.energy;
      if (r.time_s > 0) r.power_w = acc.energy / r.time_s;
      r.uncertainty_j =
          std::sqrt(acc.sampling_var) + std::fabs(acc.slope_sum) * static_cast<double>(a_.uncertainty_ns) * 1e-9;
    }
    return r;
  }

  std::int64_t period() const { return period_; }

 private:
  const alignment& a_;
  const power_inputs& p_;
  std::int64_t period_ = 0;
};

}  // namespace

energy_table attribute_energy(const trace& t, const op_tree& tree, const alignment& a, const power_inputs& power,
                              std::size_t max_rows) {
  const attributor at(a, power);
  const op_keys keys(t);
  const auto rails = power.rails.size();
  table ops(t.names.size(), rails), top(t.names.size(), rails), kernels(t.names.size(), rails);
  // Each node's energy, then its self part (children come after their parent in `nodes`).
  std::vector<double> node_energy(tree.nodes.size());
  for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
    const auto& e = t.events[tree.nodes[n].event];
    node_energy[n] = at.add(ops, keys.of_name[e.name], e);
  }
  const auto self_of = [&](std::size_t n) {
    double time = static_cast<double>(t.events[tree.nodes[n].event].dur_ns) * 1e-9, energy = node_energy[n];
    for (auto c : tree.nodes[n].children) {
      time -= static_cast<double>(t.events[tree.nodes[c].event].dur_ns) * 1e-9;
      energy -= node_energy[c];
    }
    return std::make_pair(time, energy);
  };
  for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
    const auto [time, energy] = self_of(n);
    attributor::add_self(ops, keys.of_name[t.events[tree.nodes[n].event].name], time, energy);
  }
  for (auto root : tree.roots) {
    const auto& e = t.events[tree.nodes[root].event];
    at.add(top, keys.of_name[e.name], e);
  }
  for (const auto& e : t.events)
    if (is_device(e.category)) at.add(kernels, e.name, e);
  const auto op_name = [&](std::uint32_t key) -> const std::string& { return keys.name(t, key); };
  const auto kernel_name = [&](std::uint32_t key) -> const std::string& { return t.names[key]; };
  const auto finish = [&](const accumulator& acc, std::string name, const double* r) {
    return at.row_of(acc, std::move(name), r);
  };
  energy_table out;
  out.ops = ops.finish(max_rows, op_name, finish);
  out.top_level = top.finish(max_rows, op_name, finish);
  out.kernels = kernels.finish(max_rows, kernel_name, finish);
  out.sensor_period_ns = at.period();
  return out;
}

}  // namespace jetperf::traces
