#include <jetperf/stats/layer_power_estimate.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include <jetperf/stats/block_covariance.hpp>
#include <jetperf/stats/nonnegative_least_squares.hpp>
#include <jetperf/stats/student_t.hpp>

namespace jetperf::stats {

namespace {

constexpr double k_inf = std::numeric_limits<double>::infinity();
constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
constexpr double k_two_pi = 6.283185307179586;
// Window-end phases the expected design is averaged over: enough for each ramp of a layer's
// overlap (as long as the layer) to be sampled a few times, within a cost bound per check.
constexpr std::size_t k_min_phases = 256, k_max_phases = 8192;
constexpr double k_phase_cost_budget = 2e7;  // phases x units^2
// The blocks of consecutive runs the residuals' scatter is taken over (block_covariance.hpp): one
// run each up to k_blocks runs, a few runs each past that. Its interval takes Student's t on
// blocks - 1, so a handful of blocks give a wide one; under k_min_runs there is no estimate of
// the scatter at all, and the estimate is not called converged however narrow the usual
// interval looks (on the simulated Orin a network's runs converged after 6 of them, and their
// run-to-run scatter was what the intervals missed).
constexpr std::size_t k_blocks = 30;

// sigma^2 `information`^-1 (n x n) with sigma^2 from the residuals of `ne`; empty when the design
// is singular or has no spare rows.
std::vector<double> covariance(const normal_equations& ne, const std::vector<double>& information, double rss) {
  if (ne.rows <= ne.n) return {};
  auto inv = spd_inverse(information, ne.n);
  if (!inv) return {};
  const double sigma2 = rss / static_cast<double>(ne.rows - ne.n);
  for (double& v : *inv) v *= sigma2;
  return *inv;
}

std::vector<double> covariance(const normal_equations& ne, double rss) { return covariance(ne, ne.ata, rss); }

// The 95% interval's multiplier for the unknowns' covariance: Student's t on the residuals' spare rows.
double interval_factor(std::size_t rows, std::size_t n) { return rows > n ? t95(rows - n) : k_inf; }

// sqrt(lambda_max / lambda_min) of A'A with its columns scaled to unit norm: scale-free, so a
// short layer's small column does not read as ill-conditioning by itself.
double condition_number(const normal_equations& ne) {
  const std::size_t n = ne.n;
  std::vector<double> scaled(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const double d = std::sqrt(ne.ata[i * n + i] * ne.ata[j * n + j]);
      scaled[i * n + j] = d > 0 ? ne.ata[i * n + j] / d : 0.0;
    }
  const auto ev = symmetric_eigenvalues(std::move(scaled), n);
  if (ev.empty()) return k_inf;
  if (!(ev.front() > 1e-15 * ev.back())) return k_inf;
  return std::sqrt(ev.back() / ev.front());
}

// Each unit's dynamic power, the time-weighted mean of its columns' (a unit's columns run one
// after another in every run), and the units' power covariance (k x k; empty with `cov`). Columns
// past the last bound (the time between runs) weigh nothing.
struct unit_figures {
  std::vector<double> power_w;
  std::vector<double> covariance;
};

unit_figures unit_powers(const std::vector<std::size_t>& bounds, const std::vector<double>& x,
                         const std::vector<double>& cov, const std::vector<double>& duration_s) {
  const std::size_t k = bounds.size() - 1, n = x.size();
  unit_figures f;
  // The weight of each column in its unit's mean (equal weights for a unit that took no time).
  std::vector<double> weight(n, 0.0);
  std::vector<std::size_t> unit(n, 0);
  for (std::size_t u = 0; u < k; ++u) {
    double total = 0;
    for (std::size_t c = bounds[u]; c < bounds[u + 1]; ++c) total += duration_s[c], unit[c] = u;
    for (std::size_t c = bounds[u]; c < bounds[u + 1]; ++c)
      weight[c] = total > 0 ? duration_s[c] / total : 1.0 / static_cast<double>(bounds[u + 1] - bounds[u]);
  }
  f.power_w.assign(k, 0.0);
  for (std::size_t c = 0; c < n; ++c) f.power_w[unit[c]] += weight[c] * x[c];
  if (cov.empty()) return f;
  f.covariance.assign(k * k, 0.0);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) f.covariance[unit[a] * k + unit[b]] += weight[a] * weight[b] * cov[a * n + b];
  return f;
}

}  // namespace

double layer_unit::rel_half_width() const {
  if (reference_w > 0) return power_ci95_w / reference_w;
  return energy_j > 0 ? energy_ci95_j / energy_j : k_inf;
}

double relative_reference_w(const layer_estimate_options& o, double power_w) {
  if (!o.relative_to_dynamic) return power_w;
  return std::max(power_w - o.idle_w, 0.01 * std::fabs(power_w));
}

struct layer_power_estimator::system {
  normal_equations ne;
  std::vector<std::size_t> coverage;  ///< readings per unit
  std::vector<double> duration_s;     ///< mean per run, per unit
  /// E[a a'] (n x n) of one reading at a random phase of the runs' mean cycle (empty: not
  /// computed, as when no readings are to come, or no runs).
  std::vector<double> expected;
  /// The exact energy's row c (seconds of each unknown inside its interval) and right-hand side
  /// (its joules less the idle term's); empty without one.
  std::vector<double> exact_row;
  double exact_rhs = 0;
  /// The rows of A themselves, each in its block of runs (empty after a merge of unknowns).
  blocked_rows rows;
  /// Adds unknown `v` to unknown `u` (u < v) and removes `v`, as merging their columns of A does.
  void merge_unknowns(std::size_t u, std::size_t v);
};

namespace {

// Holds the least-squares solution `x` (with residual sum `rss` over `rows` rows, covariance
// `cov`) to the exact row c'x = e: x + K (e - c'x), K = M c / c'M c, where cov = sigma^2 M.
// The residual sum grows by (e - c'x)^2 / c'M c, the residuals gain one degree of freedom, and
// the covariance loses its part along c: sigma_c^2 (M - M c c' M / c'M c). Returns e - c'x
// before (J), NaN where c'M c is not positive (nothing of the unknowns is in the interval).
double hold_to_exact(const std::vector<double>& c, double e, std::size_t rows, std::vector<double>& x, double& rss,
                     std::vector<double>& cov) {
  const std::size_t n = x.size();
  std::vector<double> v(n, 0.0);
  double q = 0, cx = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) v[i] += cov[i * n + j] * c[j];
    q += c[i] * v[i];
    cx += c[i] * x[i];
  }
  if (!(q > 0) || rows <= n) return k_nan;
  const double gap = e - cx;
  for (std::size_t i = 0; i < n; ++i) x[i] += v[i] * gap / q;
  const double sigma2 = rss / static_cast<double>(rows - n);
  if (!(sigma2 > 0)) return gap;
  rss += gap * gap * sigma2 / q;
  const double scale = rss / static_cast<double>(rows - n + 1) / sigma2;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) cov[i * n + j] = scale * (cov[i * n + j] - v[i] * v[j] / q);
  return gap;
}

// The unknowns' covariance from the scatter between blocks of runs (block_covariance.hpp), and,
// with an exact row c, as holding the solution to it moves it: by P = I - M c c' / c'M c
// (M = (A'A)^-1), so P V P'. Empty where there are too few blocks.
std::vector<double> covariance_between_blocks(const normal_equations& ne, const blocked_rows& rows,
                                              const std::vector<double>& exact_row) {
  if (rows.size() != ne.rows || rows.blocks() < k_min_runs) return {};
  const std::size_t n = ne.n;
  auto v = block_covariance(rows, ne);
  if (v.empty() || exact_row.empty()) return v;
  const auto inverse = spd_inverse(ne.ata, n);
  if (!inverse) return v;
  std::vector<double> mc(n, 0.0);
  double q = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) mc[i] += (*inverse)[i * n + j] * exact_row[j];
    q += exact_row[i] * mc[i];
  }
  if (!(q > 0)) return v;
  // P = I - mc c' / q; P V P' in two products.
  std::vector<double> pv(n * n), out(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double cv = 0;
      for (std::size_t k = 0; k < n; ++k) cv += exact_row[k] * v[k * n + j];
      pv[i * n + j] = v[i * n + j] - mc[i] * cv / q;
    }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double pc = 0;
      for (std::size_t k = 0; k < n; ++k) pc += pv[i * n + k] * exact_row[k];
      out[i * n + j] = pv[i * n + j] - pc * mc[j] / q;
    }
  return out;
}

}  // namespace

namespace {

// Time a layer active for `d` from `start` of every `cycle` has run in (0, x]; x may be negative.
double active_until(double x, double start, double d, double cycle) {
  const double k = std::floor(x / cycle);
  const double r = x - k * cycle;
  return k * d + std::clamp(r - start, 0.0, d);
}

}  // namespace

std::vector<double> layer_power_estimator::expected_information() const {
  const std::size_t n = unknowns();
  if (runs_.empty() || columns_.empty()) return {};
  // The runs' mean layout: each layer's offset from its run's start and its length, and the mean
  // cycle from one run's start to the next (the gaps between runs included: the board idles there).
  const std::size_t parts = column_of_part_.size();
  std::vector<double> offset(parts, 0.0), length(parts, 0.0);
  std::vector<std::size_t> seen(parts, 0);
  for (const auto& r : runs_)
    for (const auto& sp : r.spans) {
      const auto l = static_cast<std::size_t>(sp.layer);
      offset[l] += static_cast<double>(sp.start_ns - r.start_ns);
      length[l] += static_cast<double>(sp.end_ns - sp.start_ns);
      ++seen[l];
    }
  double run_ns = 0;
  for (const auto& r : runs_) run_ns += static_cast<double>(r.end_ns - r.start_ns);
  run_ns /= static_cast<double>(runs_.size());
  double cycle = runs_.size() > 1 ? static_cast<double>(runs_.back().start_ns - runs_.front().start_ns) /
                                        static_cast<double>(runs_.size() - 1)
                                  : run_ns;
  cycle = std::max(cycle, run_ns);
  if (!(cycle > 0)) return {};
  struct placed {
    double start, length;
    std::size_t unit;
  };
  std::vector<placed> layers;
  double shortest = cycle;
  for (std::size_t l = 0; l < parts; ++l) {
    if (!seen[l] || column_of_part_[l] < 0) continue;
    const double start = offset[l] / static_cast<double>(seen[l]);
    const double len = std::min(length[l] / static_cast<double>(seen[l]), cycle - start);
    if (len <= 0) continue;
    layers.push_back({start, len, static_cast<std::size_t>(column_of_part_[l])});
    shortest = std::min(shortest, len);
  }
  // The time between runs, as the last column (not counted in `shortest`: without pauses it is a
  // few microseconds, and its overlap matters no more than the idle term's would).
  if (options_.between_runs_column && cycle > run_ns) layers.push_back({run_ns, cycle - run_ns, columns_.size()});
  const double w = static_cast<double>(options_.window_ns);
  const double per_phase = std::min(shortest, w) / 4;
  auto phases = static_cast<std::size_t>(std::ceil(cycle / std::max(per_phase, 1.0)));
  phases = std::clamp(phases, k_min_phases, k_max_phases);
  phases = std::max(k_min_phases, std::min(phases, static_cast<std::size_t>(k_phase_cost_budget / static_cast<double>(n * n))));
  std::vector<double> m(n * n, 0.0), a(n, 0.0);
  std::vector<std::size_t> touched;
  std::size_t rows = 0;
  for (std::size_t g = 0; g < phases; ++g) {
    const double e = (static_cast<double>(g) + 0.5) * cycle / static_cast<double>(phases);
    touched.clear();
    for (const auto& p : layers) {
      const double overlap = active_until(e, p.start, p.length, cycle) - active_until(e - w, p.start, p.length, cycle);
      if (overlap <= 0) continue;
      if (a[p.unit] == 0) touched.push_back(p.unit);
      a[p.unit] += overlap / w;
    }
    // A window over no run is no row of the system (as build() leaves it out).
    if (touched.empty()) continue;
    ++rows;
    for (std::size_t i : touched)
      for (std::size_t j : touched) m[i * n + j] += a[i] * a[j];
    for (std::size_t i : touched) a[i] = 0;
  }
  if (rows == 0) return {};
  for (double& v : m) v /= static_cast<double>(rows);
  return m;
}

layer_power_estimator::layer_power_estimator(std::size_t layer_count, layer_estimate_options options)
    : layer_power_estimator(layer_count, options, {}) {}

layer_power_estimator::layer_power_estimator(std::size_t layer_count, layer_estimate_options options,
                                             std::vector<int> layer_of_part)
    : layer_count_(layer_count), layer_of_part_(std::move(layer_of_part)), by_parts_(!layer_of_part_.empty()), options_(options) {
  if (options_.window_ns <= 0) throw std::invalid_argument("layer power estimator: the sensor's window must be positive");
  if (!by_parts_) {
    layer_of_part_.resize(layer_count);
    for (std::size_t l = 0; l < layer_count; ++l) layer_of_part_[l] = static_cast<int>(l);
  }
  for (int l : layer_of_part_)
    if (l >= static_cast<int>(layer_count)) throw std::out_of_range("layer power estimator: a part's layer is not in the network");
  column_of_part_.assign(layer_of_part_.size(), -1);
}

void layer_power_estimator::add_run(const std::vector<layer_span>& spans) {
  if (spans.empty()) return;
  run r;
  r.start_ns = spans.front().start_ns;
  r.end_ns = spans.back().end_ns;
  std::vector<int> added;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const auto& s = spans[i];
    if (s.layer < 0 || static_cast<std::size_t>(s.layer) >= column_of_part_.size() ||
        layer_of_part_[static_cast<std::size_t>(s.layer)] < 0)
      throw std::out_of_range("layer power estimator: layer " + std::to_string(s.layer) + " is not in the network");
    layer_span g = s;
    g.end_ns = i + 1 < spans.size() ? std::max(s.start_ns, spans[i + 1].start_ns) : std::max(s.start_ns, s.end_ns);
    r.end_ns = std::max(r.end_ns, g.end_ns);
    r.spans.push_back(g);
    if (column_of_part_[static_cast<std::size_t>(s.layer)] < 0) {
      // A part seen for the first time is a column of its own, in part order, and a unit of its
      // layer's (the layer's unit when it has one already).
      column_of_part_[static_cast<std::size_t>(s.layer)] = 0;
      const auto at = std::find_if(columns_.begin(), columns_.end(), [&](const std::vector<int>& u) { return u.front() > s.layer; });
      const auto c = static_cast<std::size_t>(at - columns_.begin());
      columns_.insert(at, std::vector<int>{s.layer});
      const int layer = layer_of_part_[static_cast<std::size_t>(s.layer)];
      // Any part of the column, not its first: a column merged as dependent holds parts of two
      // layers, and a layer whose new part started a unit of its own sat in two units (its own
      // figure and its group's, its energy counted twice).
      const auto holds_layer = [&](const std::vector<int>& column) {
        return std::any_of(column.begin(), column.end(),
                           [&](int p) { return layer_of_part_[static_cast<std::size_t>(p)] == layer; });
      };
      int label = -1;
      for (std::size_t j = 0; j < c; ++j)
        if (holds_layer(columns_[j])) label = unit_of_column_[j];
      for (std::size_t j = c + 1; label < 0 && j < columns_.size(); ++j)
        if (holds_layer(columns_[j])) label = unit_of_column_[j - 1];
      if (label < 0) label = next_label_++;
      unit_of_column_.insert(unit_of_column_.begin() + static_cast<std::ptrdiff_t>(c), label);
      added.push_back(s.layer);
    }
  }
  if (!added.empty()) {
    renumber();
    // Short new parts share a column with the next new parts of their layer, to min_part_ns
    // together (by this run's times).
    if (options_.min_part_ns > 0) {
      std::map<int, std::int64_t> length;
      for (const auto& g : r.spans) length[g.layer] = g.end_ns - g.start_ns;
      for (std::size_t c = 0; c + 1 < columns_.size();) {
        const int last = columns_[c].back(), next = columns_[c + 1].front();
        std::int64_t len = 0;
        for (int p : columns_[c]) len += length.count(p) ? length[p] : options_.min_part_ns;
        const bool fresh = std::find(added.begin(), added.end(), last) != added.end() &&
                           std::find(added.begin(), added.end(), next) != added.end();
        if (fresh && len < options_.min_part_ns && unit_of_column_[c] == unit_of_column_[c + 1] &&
            layer_of_part_[static_cast<std::size_t>(last)] == layer_of_part_[static_cast<std::size_t>(next)])
          merge(c, c + 1);
        else
          ++c;
      }
    }
  }
  if (!added.empty()) keep_units_whole();
  runs_.push_back(std::move(r));
}

void layer_power_estimator::keep_units_whole() {
  for (bool changed = true; changed;) {
    changed = false;
    // The first label each layer was seen with, and the last column of each label.
    std::map<int, int> label_of_layer;
    std::map<int, std::size_t> last_column;
    for (std::size_t c = 0; c < columns_.size(); ++c) last_column[unit_of_column_[c]] = c;
    for (std::size_t c = 0; c < columns_.size() && !changed; ++c) {
      const int label = unit_of_column_[c];
      for (int p : columns_[c]) {
        const auto [it, fresh] = label_of_layer.emplace(layer_of_part_[static_cast<std::size_t>(p)], label);
        if (!fresh && it->second != label) {
          std::replace(unit_of_column_.begin(), unit_of_column_.end(), label, it->second);
          changed = true;
          break;
        }
      }
      // A column of another unit between two of this one's: the three are one.
      for (std::size_t d = c + 1; !changed && d < last_column[label]; ++d)
        if (unit_of_column_[d] != label) {
          std::replace(unit_of_column_.begin(), unit_of_column_.end(), unit_of_column_[d], label);
          changed = true;
        }
    }
  }
}

void layer_power_estimator::renumber() {
  for (std::size_t c = 0; c < columns_.size(); ++c)
    for (int p : columns_[c]) column_of_part_[static_cast<std::size_t>(p)] = static_cast<int>(c);
}

std::vector<std::size_t> layer_power_estimator::unit_bounds() const {
  std::vector<std::size_t> b;
  for (std::size_t c = 0; c < columns_.size(); ++c)
    if (c == 0 || unit_of_column_[c] != unit_of_column_[c - 1]) b.push_back(c);
  b.push_back(columns_.size());
  return b;
}

std::vector<int> layer_power_estimator::layers_of(std::size_t from, std::size_t to) const {
  std::vector<int> out;
  for (std::size_t c = from; c < to; ++c)
    for (int p : columns_[c]) {
      const int l = layer_of_part_[static_cast<std::size_t>(p)];
      if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
    }
  std::sort(out.begin(), out.end());
  return out;
}

void layer_power_estimator::add_reading(const power_reading& r) { readings_.push_back(r); }

void layer_power_estimator::set_exact_energy(std::int64_t from_ns, std::int64_t to_ns, double joules) {
  if (!(to_ns > from_ns)) throw std::invalid_argument("layer power estimator: an exact energy needs an interval");
  exact_.assign(1, exact_energy{from_ns, to_ns, joules});
}

std::pair<double, double> layer_power_estimator::energy_within(std::int64_t from_ns, std::int64_t to_ns,
                                                               const layer_power_result& result) const {
  std::vector<double> power(layer_count_, options_.idle_w);
  for (const auto& u : result.units)
    for (int l : u.layers) power[static_cast<std::size_t>(l)] = u.power_w;
  double layers_j = 0;
  std::int64_t in_runs = 0;
  for (const auto& r : runs_) {
    if (r.end_ns <= from_ns || r.start_ns >= to_ns) continue;
    for (const auto& sp : r.spans) {
      const auto overlap = std::min(sp.end_ns, to_ns) - std::max(sp.start_ns, from_ns);
      if (overlap <= 0) continue;
      const int l = layer_of_part_[static_cast<std::size_t>(sp.layer)];
      layers_j += power[static_cast<std::size_t>(l)] * static_cast<double>(overlap) * 1e-9;
      in_runs += overlap;
    }
  }
  const double between_w = std::isfinite(result.between_runs_power_w) ? result.between_runs_power_w : options_.idle_w;
  return {layers_j, between_w * static_cast<double>(to_ns - from_ns - in_runs) * 1e-9};
}

void layer_power_estimator::exact_row(system& s) const {
  const auto& x = exact_.front();
  const std::size_t nc = columns_.size();
  s.exact_row.assign(s.ne.n, 0.0);
  std::int64_t in_runs = 0;
  for (const auto& r : runs_) {
    if (r.end_ns <= x.from_ns || r.start_ns >= x.to_ns) continue;
    for (const auto& sp : r.spans) {
      const auto overlap = std::min(sp.end_ns, x.to_ns) - std::max(sp.start_ns, x.from_ns);
      if (overlap <= 0) continue;
      s.exact_row[static_cast<std::size_t>(column_of_part_[static_cast<std::size_t>(sp.layer)])] +=
          static_cast<double>(overlap) * 1e-9;
      in_runs += overlap;
    }
  }
  // The rest of the interval is between runs: the unknown of its own, or the idle term.
  if (s.ne.n > nc) s.exact_row[nc] = static_cast<double>(x.to_ns - x.from_ns - in_runs) * 1e-9;
  s.exact_rhs = x.joules - options_.idle_w * static_cast<double>(x.to_ns - x.from_ns) * 1e-9;
}

layer_power_estimator::system layer_power_estimator::build() const {
  const std::size_t nc = columns_.size(), n = unknowns();
  const bool between = n > nc;
  system s{normal_equations(n), std::vector<std::size_t>(n, 0), std::vector<double>(n, 0.0), {}, {}, 0.0, {}};
  for (const auto& r : runs_)
    for (const auto& sp : r.spans)
      s.duration_s[static_cast<std::size_t>(column_of_part_[static_cast<std::size_t>(sp.layer)])] +=
          static_cast<double>(sp.end_ns - sp.start_ns) * 1e-9;
  if (between)
    for (std::size_t i = 0; i + 1 < runs_.size(); ++i)
      s.duration_s[nc] += static_cast<double>(std::max<std::int64_t>(0, runs_[i + 1].start_ns - runs_[i].end_ns)) * 1e-9;
  if (!runs_.empty())
    for (double& d : s.duration_s) d /= static_cast<double>(runs_.size());

  if (!exact_.empty()) exact_row(s);
  const double w = static_cast<double>(options_.window_ns);
  std::vector<double> dense(n, 0.0);
  std::vector<std::pair<std::size_t, double>> row;
  std::size_t first = 0;  // the first run that may still overlap a reading (both in time order)
  std::size_t first_excluded = 0;
  const std::size_t runs_per_block = std::max<std::size_t>(1, (runs_.size() + k_blocks - 1) / k_blocks);
  for (const auto& k : readings_) {
    const std::int64_t from = k.end_ns - options_.window_ns, to = k.end_ns;
    while (first_excluded < excluded_.size() && excluded_[first_excluded].second <= from) ++first_excluded;
    if (first_excluded < excluded_.size() && excluded_[first_excluded].first < to) continue;
    if (between && (runs_.empty() || from < runs_.front().start_ns)) continue;
    while (first < runs_.size() && runs_[first].end_ns <= from) ++first;
    std::fill(dense.begin(), dense.end(), 0.0);
    bool any = false;
    std::int64_t in_runs = 0;
    for (std::size_t i = first; i < runs_.size() && runs_[i].start_ns < to; ++i) {
      for (const auto& sp : runs_[i].spans) {
        const auto overlap = std::min(sp.end_ns, to) - std::max(sp.start_ns, from);
        if (overlap <= 0) continue;
        dense[static_cast<std::size_t>(column_of_part_[static_cast<std::size_t>(sp.layer)])] += static_cast<double>(overlap) / w;
        in_runs += overlap;
        any = true;
      }
    }
    // What the runs do not cover of the window is between them (the readings left out above
    // are those over the caller's own work).
    if (between && options_.window_ns > in_runs) {
      dense[nc] = static_cast<double>(options_.window_ns - in_runs) / w;
      any = true;
    }
    if (!any) continue;
    row.clear();
    for (std::size_t u = 0; u < n; ++u)
      if (dense[u] > 0) row.emplace_back(u, dense[u]), ++s.coverage[u];
    s.ne.add_row(row, k.watts - options_.idle_w);
    s.rows.add(row, k.watts - options_.idle_w, first / runs_per_block);
  }
  return s;
}

layer_power_result layer_power_estimator::solve(const system& s) const {
  layer_power_result out;
  out.runs = runs_.size();
  out.readings = s.ne.rows;
  const std::size_t nc = columns_.size(), n = s.ne.n;
  out.phase_lock = phase_lock();
  if (nc == 0) {
    out.unresolvable = "no run was recorded";
    return out;
  }
  if (s.ne.rows == 0) {
    out.unresolvable = "no sensor reading overlaps a run";
  }
  auto sol = solve_nnls(s.ne);
  auto cov = covariance(s.ne, sol.rss);
  // An exact energy is one more equation the solution meets exactly: one more spare row.
  const bool exact = !s.exact_row.empty() && !cov.empty();
  // Each interval is the wider of the usual one and the one from the residuals' scatter between
  // blocks of runs (readings over one run move together: block_covariance.hpp).
  const auto between_blocks = covariance_between_blocks(s.ne, s.rows, exact ? s.exact_row : std::vector<double>());
  const double block_factor = between_blocks.empty() ? 0.0 : t95(s.rows.blocks() - 1);
  const auto half_width = [&](double factor, double var, double block_var) {
    if (!std::isfinite(var)) return k_inf;
    const double usual = factor * std::sqrt(std::max(var, 0.0));
    return std::isfinite(block_var) ? std::max(usual, block_factor * std::sqrt(std::max(block_var, 0.0))) : usual;
  };
  if (exact) out.exact_energy_gap_j = hold_to_exact(s.exact_row, s.exact_rhs, s.ne.rows, sol.x, sol.rss, cov);
  const std::size_t rows = s.ne.rows + (exact ? 1 : 0);
  const double factor = interval_factor(rows, n);
  out.blocks = between_blocks.empty() ? 0 : s.rows.blocks();
  out.residual_dof = rows > n ? rows - n : 0;
  out.columns = n;
  out.residual_rms_w = s.ne.rows ? std::sqrt(sol.rss / static_cast<double>(s.ne.rows)) : 0.0;
  out.condition_number = s.ne.rows ? condition_number(s.ne) : k_inf;
  // Var(sum_u d_u x_u) over the layers' unknowns.
  const auto sum_variance = [&](const std::vector<double>& c) {
    double v = c.empty() ? k_inf : 0.0;
    if (!c.empty())
      for (std::size_t u = 0; u < nc; ++u)
        for (std::size_t w = 0; w < nc; ++w) v += s.duration_s[u] * s.duration_s[w] * c[u * n + w];
    return v;
  };
  if (n > nc) {
    out.between_runs_power_w = options_.idle_w + sol.x[nc];
    out.between_runs_ci95_w = half_width(factor, cov.empty() ? k_inf : cov[nc * n + nc],
                                         between_blocks.empty() ? k_nan : between_blocks[nc * n + nc]);
    out.between_runs_readings = s.coverage[nc];
  }
  const auto bounds = unit_bounds();
  const std::size_t units = bounds.size() - 1;
  const auto figures = unit_powers(bounds, sol.x, cov, s.duration_s);
  const auto block_figures = unit_powers(bounds, sol.x, between_blocks, s.duration_s);
  for (std::size_t k = 0; k < units; ++k) {
    layer_unit lu;
    lu.layers = layers_of(bounds[k], bounds[k + 1]);
    lu.columns = bounds[k + 1] - bounds[k];
    lu.power_w = options_.idle_w + figures.power_w[k];
    lu.power_ci95_w = half_width(factor, figures.covariance.empty() ? k_inf : figures.covariance[k * units + k],
                                 block_figures.covariance.empty() ? k_nan : block_figures.covariance[k * units + k]);
    if (!figures.covariance.empty()) lu.residuals_ci95_w = factor * std::sqrt(std::max(figures.covariance[k * units + k], 0.0));
    if (!block_figures.covariance.empty())
      lu.runs_ci95_w = block_factor * std::sqrt(std::max(block_figures.covariance[k * units + k], 0.0));
    lu.at_bound = true;
    for (std::size_t c = bounds[k]; c < bounds[k + 1]; ++c) {
      lu.duration_s += s.duration_s[c];
      lu.readings = std::max(lu.readings, s.coverage[c]);
      lu.at_bound = lu.at_bound && sol.at_bound[c];
    }
    lu.energy_j = lu.power_w * lu.duration_s;
    lu.energy_ci95_j = lu.power_ci95_w * lu.duration_s;
    lu.reference_w = relative_reference_w(options_, lu.power_w);
    lu.projected_rel = lu.rel_half_width();
    out.sum_energy_j += lu.energy_j;
    out.units.push_back(std::move(lu));
  }
  out.sum_energy_ci95_j =
      half_width(factor, sum_variance(cov), between_blocks.empty() ? k_nan : sum_variance(between_blocks));
  if (out.unresolvable.empty() && cov.empty())
    out.unresolvable = s.ne.rows <= n ? "fewer readings than unknowns" : "the readings cannot separate the layers";
  // Intervals from a handful of spare readings rest on a residual variance that is itself a
  // guess: not enough to call the estimate done, however narrow they look.
  out.converged = out.unresolvable.empty() && out.residual_dof >= k_min_residual_dof && runs_.size() >= k_min_runs &&
                  std::all_of(out.units.begin(), out.units.end(),
                              [&](const layer_unit& lu) { return lu.rel_half_width() <= options_.target_rel; });
  return out;
}

layer_power_result layer_power_estimator::solve() const { return solve(build()); }

layer_power_estimator::fit_quality layer_power_estimator::fit() const {
  const auto s = build();
  fit_quality out;
  out.rows = s.ne.rows;
  out.residual_dof = s.ne.rows > s.ne.n ? s.ne.rows - s.ne.n : 0;
  if (s.ne.rows > 0 && s.ne.n > 0) out.rss = solve_nnls(s.ne).rss;
  return out;
}

double layer_power_estimator::trend_projection(const layer_unit& unit, std::size_t rows, double to_come) const {
  // Since the readings were half as many or fewer: rel ~ rows^-a, with a = 1/2 for a model that
  // holds. A unit whose interval has shrunk more slowly (the model misses something of it: on
  // the simulated Orin, a run's last, idle-like layers) is judged by its own trend. Over a
  // doubling of the readings, the noise of two intervals moves `a` by a few hundredths.
  const auto it = history_.find(unit.layers);
  const double rel = unit.rel_half_width();
  if (it == history_.end() || !std::isfinite(rel) || rows == 0) return k_nan;
  const std::pair<std::size_t, double>* base = nullptr;
  for (const auto& h : it->second)
    if (2 * h.first <= rows) base = &h;
  if (!base || !(base->second > 0)) return k_nan;
  const double a = std::log(base->second / rel) / std::log(static_cast<double>(rows) / static_cast<double>(base->first));
  if (!(a < 0.5)) return k_nan;
  return rel * std::pow((static_cast<double>(rows) + to_come) / static_cast<double>(rows), -std::max(a, 0.0));
}

bool layer_power_estimator::phase_locked() const {
  const double r = phase_lock();
  return r > 0.5 && static_cast<double>(runs_.size()) * r * r > 6.9;
}

double layer_power_estimator::phase_lock() const {
  if (runs_.empty()) return 0;
  double c = 0, si = 0;
  for (const auto& r : runs_) {
    const double phase = k_two_pi * static_cast<double>(r.start_ns % options_.window_ns) / static_cast<double>(options_.window_ns);
    c += std::cos(phase), si += std::sin(phase);
  }
  return std::hypot(c, si) / static_cast<double>(runs_.size());
}

void layer_power_estimator::merge(std::size_t u, std::size_t v) {
  if (u > v) std::swap(u, v);
  const int keep = unit_of_column_[u], gone = unit_of_column_[v];
  columns_[u].insert(columns_[u].end(), columns_[v].begin(), columns_[v].end());
  columns_.erase(columns_.begin() + static_cast<std::ptrdiff_t>(v));
  unit_of_column_.erase(unit_of_column_.begin() + static_cast<std::ptrdiff_t>(v));
  // Columns of two units made one: the units are one too.
  std::replace(unit_of_column_.begin(), unit_of_column_.end(), gone, keep);
  renumber();
  keep_units_whole();
}

void layer_power_estimator::merge_units(std::size_t c) {
  const int keep = unit_of_column_[c];
  std::size_t next = c;
  while (next < columns_.size() && unit_of_column_[next] == keep) ++next;
  if (next == columns_.size()) return;
  std::replace(unit_of_column_.begin(), unit_of_column_.end(), unit_of_column_[next], keep);
  keep_units_whole();
}

namespace {

// Merging two columns of A adds them: A'A gains the sum of their rows and columns, A'b the sum
// of their entries (and E[a a'] as A'A). So each merge updates the system in O(n^2) instead of
// rebuilding it.
void merge_columns(std::vector<double>& m, std::size_t n, std::size_t u, std::size_t v) {
  std::vector<double> out((n - 1) * (n - 1));
  const auto src = [&](std::size_t i) { return i < v ? i : i + 1; };
  for (std::size_t i = 0; i + 1 < n; ++i)
    for (std::size_t j = 0; j + 1 < n; ++j) {
      const std::size_t a = src(i), b = src(j);
      double val = m[a * n + b];
      if (a == u) val += m[v * n + b];
      if (b == u) val += m[a * n + v];
      if (a == u && b == u) val += m[v * n + v];
      out[i * (n - 1) + j] = val;
    }
  m = std::move(out);
}

// The readings still to come by the horizon, at the rate they came so far.
double readings_to_come(std::size_t rows, double elapsed_s, double horizon_s) {
  return elapsed_s > 0 && horizon_s > elapsed_s ? static_cast<double>(rows) * (horizon_s - elapsed_s) / elapsed_s : 0.0;
}

// The information by the horizon: the readings so far and those to come. Each unit's share of
// the readings to come is scaled by the share it got of those so far against what random phases
// give it (A'A's diagonal against rows x E[a a']'s): readings left out fall where the runs
// pause, after a run's last layers, and those keep missing them.
std::vector<double> horizon_information(const normal_equations& ne, const std::vector<double>& expected_aa,
                                        double to_come) {
  const std::size_t n = ne.n;
  auto information = ne.ata;
  if (to_come > 0 && !expected_aa.empty()) {
    std::vector<double> got(n, 1.0);
    for (std::size_t u = 0; u < n; ++u) {
      const double expected = static_cast<double>(ne.rows) * expected_aa[u * n + u];
      if (expected > 0 && ne.ata[u * n + u] > 0) got[u] = std::min(1.0, ne.ata[u * n + u] / expected);
    }
    for (std::size_t u = 0; u < n; ++u)
      for (std::size_t v = 0; v < n; ++v)
        information[u * n + v] += to_come * expected_aa[u * n + v] * std::sqrt(got[u] * got[v]);
  }
  return information;
}

// The unit whose relative half-width at the horizon is the widest beyond resolvable_rel (k when
// none is), and each unit's into `projected`.
std::size_t least_resolvable(const unit_figures& f, std::size_t k, double factor, const layer_estimate_options& o,
                             std::vector<double>& projected) {
  projected.assign(k, k_nan);
  std::size_t worst = k;
  double worst_rel = 0;
  for (std::size_t u = 0; u < k; ++u) {
    const double reference = relative_reference_w(o, o.idle_w + f.power_w[u]);
    const double rel = reference > 0 ? factor * std::sqrt(std::max(f.covariance[u * k + u], 0.0)) / reference : k_inf;
    projected[u] = rel;
    if (rel > o.resolvable_rel && rel > worst_rel) worst_rel = rel, worst = u;
  }
  return worst;
}

// The neighbour `worst` is most confounded with: the most negative correlation of the two powers.
std::size_t confounded_neighbour(const std::vector<double>& c, std::size_t k, std::size_t worst) {
  std::size_t partner = worst == 0 ? 1 : worst - 1;
  if (worst > 0 && worst + 1 < k) {
    const auto corr = [&](std::size_t v) { return c[worst * k + v] / std::sqrt(c[worst * k + worst] * c[v * k + v]); };
    partner = corr(worst + 1) < corr(worst - 1) ? worst + 1 : worst - 1;
  }
  return partner;
}

}  // namespace

void layer_power_estimator::system::merge_unknowns(std::size_t u, std::size_t v) {
  const std::size_t n = ne.n;
  merge_columns(ne.ata, n, u, v);
  if (!expected.empty()) merge_columns(expected, n, u, v);
  ne.atb[u] += ne.atb[v];
  ne.atb.erase(ne.atb.begin() + static_cast<std::ptrdiff_t>(v));
  if (!exact_row.empty()) {
    exact_row[u] += exact_row[v];
    exact_row.erase(exact_row.begin() + static_cast<std::ptrdiff_t>(v));
  }
  coverage[u] = std::max(coverage[u], coverage[v]);
  coverage.erase(coverage.begin() + static_cast<std::ptrdiff_t>(v));
  // Mean durations add: both units run once per run.
  duration_s[u] += duration_s[v];
  duration_s.erase(duration_s.begin() + static_cast<std::ptrdiff_t>(v));
  ne.n = n - 1;
  // The stored rows keep the columns before the merge: a merged system is solved with the
  // usual covariance alone (merge_unresolvable rebuilds it before its final solve).
  rows = {};
}

void layer_power_estimator::record_projections(layer_power_result& result, const std::vector<double>& projected,
                                               std::size_t rows, double to_come) {
  for (std::size_t u = 0; u < result.units.size(); ++u) {
    auto& unit = result.units[u];
    unit.projected_rel = u < projected.size() ? projected[u] : to_come > 0 ? k_nan : unit.rel_half_width();
    if (to_come > 0) unit.projected_rel = std::max(unit.projected_rel, trend_projection(unit, rows, to_come));
    // Kept a quarter more readings apart: at most a few dozen points per unit however long the
    // runs go on (a trend needs one about half as many readings back).
    auto& h = history_[unit.layers];
    if (std::isfinite(unit.rel_half_width()) && (h.empty() || 4 * rows >= 5 * h.back().first))
      h.emplace_back(rows, unit.rel_half_width());
  }
}

std::size_t layer_power_estimator::merge_unresolvable(double elapsed_s, double horizon_s, layer_power_result* result) {
  std::size_t merges = 0, column_merges = 0;  // of units (the reported ones), of columns
  system s = build();
  const auto merge_system = [&](std::size_t u, std::size_t v) {
    if (u > v) std::swap(u, v);
    s.merge_unknowns(u, v);
    merges += unit_of_column_[u] != unit_of_column_[v];
    merge(u, v);
    ++column_merges;
  };
  const double to_come = readings_to_come(s.ne.rows, elapsed_s, horizon_s);
  // What each reading to come adds on average (only where some are to come: the solves at the
  // end need none of it).
  if (to_come > 0) s.expected = expected_information();
  std::vector<double> projected;  // per unit, at the horizon, once no more merges are made
  while (columns_.size() > 1) {
    // The columns, then the time between runs when it has one (never merged).
    const std::size_t nc = columns_.size(), n = s.ne.n;
    // Too few spare readings: a unit no reading has split from its neighbour yet looks like one
    // the others explain, and every interval rests on a residual variance that is itself a
    // guess. More data, not merging, is the cure, and a merge cannot be undone. (With no
    // readings at all, as after a refit that placed none, every column is "dependent", and all
    // would be merged into one.)
    if (s.ne.rows < n + k_min_residual_dof) break;
    const auto information = horizon_information(s.ne, s.expected, to_come);
    // A column the others explain even then: merged with the one before it (the failing pivot
    // depends on earlier columns only), or the one after for the first.
    if (const auto dep = dependent_column(information, n)) {
      // The time between runs explained by the layers: no pause long enough to tell it yet,
      // which merging layers would not cure.
      if (*dep >= nc) break;
      merge_system(*dep > 0 ? *dep - 1 : 0, *dep > 0 ? *dep : 1);
      continue;
    }
    const auto sol = solve_nnls(s.ne);
    const auto cov = covariance(s.ne, information, sol.rss);
    if (cov.empty()) break;
    const double factor = interval_factor(s.ne.rows + static_cast<std::size_t>(to_come), n);
    // By unit: merging units joins no columns (their powers are added up, not fitted as one).
    const auto bounds = unit_bounds();
    const std::size_t k = bounds.size() - 1;
    const auto f = unit_powers(bounds, sol.x, cov, s.duration_s);
    const std::size_t worst = least_resolvable(f, k, factor, options_, projected);
    if (worst == k || k < 2) break;
    projected.clear();
    const std::size_t partner = confounded_neighbour(f.covariance, k, worst);
    if (!by_parts_) {
      // Given by layers, a unit is a column: the two are fitted as one.
      merge_system(bounds[worst], bounds[partner]);
    } else {
      merge_units(bounds[std::min(worst, partner)]);
      ++merges;
    }
  }
  if (!result) return merges;
  // Without a merge the system is the one solve() would build; after one, its coverage counts
  // are bounds, so the result is built afresh.
  *result = column_merges ? solve() : solve(s);
  record_projections(*result, projected, s.ne.rows, to_come);
  return merges;
}

}  // namespace jetperf::stats
