#include <jetperf/measure/layer_power_estimate.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <jetperf/measure/nonnegative_least_squares.hpp>
#include <jetperf/measure/student_t.hpp>

namespace jetperf::measure {

namespace {

constexpr double k_inf = std::numeric_limits<double>::infinity();
constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
constexpr double k_two_pi = 6.283185307179586;
// Window-end phases the expected design is averaged over: enough for each ramp of a layer's
// overlap (as long as the layer) to be sampled a few times, within a cost bound per check.
constexpr std::size_t k_min_phases = 256, k_max_phases = 8192;
constexpr double k_phase_cost_budget = 2e7;  // phases x units^2

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

}  // namespace

double layer_unit::rel_half_width() const { return energy_j > 0 ? energy_ci95_j / energy_j : k_inf; }

struct layer_power_estimator::system {
  normal_equations ne;
  std::vector<std::size_t> coverage;  ///< readings per unit
  std::vector<double> duration_s;     ///< mean per run, per unit
  /// E[a a'] (n x n) of one reading at a random phase of the runs' mean cycle (empty: not
  /// computed, as when no readings are to come, or no runs).
  std::vector<double> expected;
};

namespace {

// Time a layer active for `d` from `start` of every `cycle` has run in (0, x]; x may be negative.
double active_until(double x, double start, double d, double cycle) {
  const double k = std::floor(x / cycle);
  const double r = x - k * cycle;
  return k * d + std::clamp(r - start, 0.0, d);
}

}  // namespace

std::vector<double> layer_power_estimator::expected_information() const {
  const std::size_t n = units_.size();
  if (runs_.empty() || n == 0) return {};
  // The runs' mean layout: each layer's offset from its run's start and its length, and the mean
  // cycle from one run's start to the next (the gaps between runs included: the board idles there).
  std::vector<double> offset(layer_count_, 0.0), length(layer_count_, 0.0);
  std::vector<std::size_t> seen(layer_count_, 0);
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
  for (std::size_t l = 0; l < layer_count_; ++l) {
    if (!seen[l] || unit_of_layer_[l] < 0) continue;
    const double start = offset[l] / static_cast<double>(seen[l]);
    const double len = std::min(length[l] / static_cast<double>(seen[l]), cycle - start);
    if (len <= 0) continue;
    layers.push_back({start, len, static_cast<std::size_t>(unit_of_layer_[l])});
    shortest = std::min(shortest, len);
  }
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
    : layer_count_(layer_count), options_(options), unit_of_layer_(layer_count, -1) {
  if (options_.window_ns <= 0) throw std::invalid_argument("layer power estimator: the sensor's window must be positive");
}

void layer_power_estimator::add_run(const std::vector<layer_span>& spans) {
  if (spans.empty()) return;
  run r;
  r.start_ns = spans.front().start_ns;
  r.end_ns = spans.back().end_ns;
  bool added = false;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const auto& s = spans[i];
    if (s.layer < 0 || static_cast<std::size_t>(s.layer) >= layer_count_)
      throw std::out_of_range("layer power estimator: layer " + std::to_string(s.layer) + " is not in the network");
    layer_span g = s;
    g.end_ns = i + 1 < spans.size() ? std::max(s.start_ns, spans[i + 1].start_ns) : std::max(s.start_ns, s.end_ns);
    r.end_ns = std::max(r.end_ns, g.end_ns);
    r.spans.push_back(g);
    if (unit_of_layer_[static_cast<std::size_t>(s.layer)] < 0) {
      // A layer seen for the first time is a unit of its own, in layer order.
      unit_of_layer_[static_cast<std::size_t>(s.layer)] = 0;
      const auto at = std::find_if(units_.begin(), units_.end(), [&](const std::vector<int>& u) { return u.front() > s.layer; });
      units_.insert(at, std::vector<int>{s.layer});
      added = true;
    }
  }
  if (added)
    for (std::size_t u = 0; u < units_.size(); ++u)
      for (int l : units_[u]) unit_of_layer_[static_cast<std::size_t>(l)] = static_cast<int>(u);
  runs_.push_back(std::move(r));
}

void layer_power_estimator::add_reading(const power_reading& r) { readings_.push_back(r); }

layer_power_estimator::system layer_power_estimator::build() const {
  const std::size_t n = units_.size();
  system s{normal_equations(n), std::vector<std::size_t>(n, 0), std::vector<double>(n, 0.0), {}};
  for (const auto& r : runs_)
    for (const auto& sp : r.spans)
      s.duration_s[static_cast<std::size_t>(unit_of_layer_[static_cast<std::size_t>(sp.layer)])] +=
          static_cast<double>(sp.end_ns - sp.start_ns) * 1e-9;
  if (!runs_.empty())
    for (double& d : s.duration_s) d /= static_cast<double>(runs_.size());

  const double w = static_cast<double>(options_.window_ns);
  std::vector<double> dense(n, 0.0);
  std::vector<std::pair<std::size_t, double>> row;
  std::size_t first = 0;  // the first run that may still overlap a reading (both in time order)
  std::size_t first_excluded = 0;
  for (const auto& k : readings_) {
    const std::int64_t from = k.end_ns - options_.window_ns, to = k.end_ns;
    while (first_excluded < excluded_.size() && excluded_[first_excluded].second <= from) ++first_excluded;
    if (first_excluded < excluded_.size() && excluded_[first_excluded].first < to) continue;
    while (first < runs_.size() && runs_[first].end_ns <= from) ++first;
    std::fill(dense.begin(), dense.end(), 0.0);
    bool any = false;
    for (std::size_t i = first; i < runs_.size() && runs_[i].start_ns < to; ++i) {
      for (const auto& sp : runs_[i].spans) {
        const auto overlap = std::min(sp.end_ns, to) - std::max(sp.start_ns, from);
        if (overlap <= 0) continue;
        dense[static_cast<std::size_t>(unit_of_layer_[static_cast<std::size_t>(sp.layer)])] += static_cast<double>(overlap) / w;
        any = true;
      }
    }
    if (!any) continue;
    row.clear();
    for (std::size_t u = 0; u < n; ++u)
      if (dense[u] > 0) row.emplace_back(u, dense[u]), ++s.coverage[u];
    s.ne.add_row(row, k.watts - options_.idle_w);
  }
  return s;
}

layer_power_result layer_power_estimator::solve(const system& s) const {
  layer_power_result out;
  out.runs = runs_.size();
  out.readings = s.ne.rows;
  const std::size_t n = units_.size();
  out.phase_lock = phase_lock();
  if (n == 0) {
    out.unresolvable = "no run was recorded";
    return out;
  }
  if (s.ne.rows == 0) {
    out.unresolvable = "no sensor reading overlaps a run";
  }
  const auto sol = solve_nnls(s.ne);
  const auto cov = covariance(s.ne, sol.rss);
  const double factor = interval_factor(s.ne.rows, n);
  out.residual_dof = s.ne.rows > n ? s.ne.rows - n : 0;
  out.residual_rms_w = s.ne.rows ? std::sqrt(sol.rss / static_cast<double>(s.ne.rows)) : 0.0;
  out.condition_number = s.ne.rows ? condition_number(s.ne) : k_inf;
  double var_sum = cov.empty() ? k_inf : 0.0;
  for (std::size_t u = 0; u < n; ++u) {
    layer_unit lu;
    lu.layers = units_[u];
    lu.power_w = options_.idle_w + sol.x[u];
    lu.power_ci95_w = cov.empty() ? k_inf : factor * std::sqrt(std::max(cov[u * n + u], 0.0));
    lu.duration_s = s.duration_s[u];
    lu.energy_j = lu.power_w * lu.duration_s;
    lu.energy_ci95_j = lu.power_ci95_w * lu.duration_s;
    lu.readings = s.coverage[u];
    lu.at_bound = sol.at_bound[u];
    lu.projected_rel = lu.rel_half_width();
    out.sum_energy_j += lu.energy_j;
    if (!cov.empty())
      for (std::size_t v = 0; v < n; ++v) var_sum += s.duration_s[u] * s.duration_s[v] * cov[u * n + v];
    out.units.push_back(std::move(lu));
  }
  out.sum_energy_ci95_j = std::isfinite(var_sum) ? factor * std::sqrt(std::max(var_sum, 0.0)) : k_inf;
  if (out.unresolvable.empty() && cov.empty())
    out.unresolvable = s.ne.rows <= n ? "fewer readings than unknowns" : "the readings cannot separate the layers";
  // Intervals from a handful of spare readings rest on a residual variance that is itself a
  // guess: not enough to call the estimate done, however narrow they look.
  out.converged = out.unresolvable.empty() && out.residual_dof >= k_min_residual_dof &&
                  std::all_of(out.units.begin(), out.units.end(),
                              [&](const layer_unit& lu) { return lu.rel_half_width() <= options_.target_rel; });
  return out;
}

layer_power_result layer_power_estimator::solve() const { return solve(build()); }

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
  units_[u].insert(units_[u].end(), units_[v].begin(), units_[v].end());
  units_.erase(units_.begin() + static_cast<std::ptrdiff_t>(v));
  for (std::size_t i = 0; i < units_.size(); ++i)
    for (int l : units_[i]) unit_of_layer_[static_cast<std::size_t>(l)] = static_cast<int>(i);
}

std::size_t layer_power_estimator::merge_unresolvable(double elapsed_s, double horizon_s, layer_power_result* result) {
  std::size_t merges = 0;
  system s = build();
  // Merging two columns of A adds them: A'A gains the sum of their rows and columns, A'b the sum
  // of their entries (and E[a a'] as A'A). So each merge updates the system in O(n^2) instead of
  // rebuilding it.
  const auto merge_columns = [](std::vector<double>& m, std::size_t n, std::size_t u, std::size_t v) {
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
  };
  const auto merge_system = [&](std::size_t u, std::size_t v) {
    if (u > v) std::swap(u, v);
    auto& ne = s.ne;
    const std::size_t n = ne.n;
    merge_columns(ne.ata, n, u, v);
    if (!s.expected.empty()) merge_columns(s.expected, n, u, v);
    ne.atb[u] += ne.atb[v];
    ne.atb.erase(ne.atb.begin() + static_cast<std::ptrdiff_t>(v));
    s.coverage[u] = std::max(s.coverage[u], s.coverage[v]);
    s.coverage.erase(s.coverage.begin() + static_cast<std::ptrdiff_t>(v));
    // Mean durations add: both units run once per run.
    s.duration_s[u] += s.duration_s[v];
    s.duration_s.erase(s.duration_s.begin() + static_cast<std::ptrdiff_t>(v));
    ne.n = n - 1;
    merge(u, v);
    ++merges;
  };
  // The readings still to come by the horizon, at the rate they came so far, and what each adds
  // on average (only where some are to come: the solves at the end need none of it).
  const double to_come = elapsed_s > 0 && horizon_s > elapsed_s
                             ? static_cast<double>(s.ne.rows) * (horizon_s - elapsed_s) / elapsed_s
                             : 0.0;
  if (to_come > 0) s.expected = expected_information();
  std::vector<double> projected;  // per unit, at the horizon, once no more merges are made
  while (units_.size() > 1) {
    const std::size_t n = units_.size();
    // Too few spare readings: a unit no reading has split from its neighbour yet looks like one
    // the others explain, and every interval rests on a residual variance that is itself a
    // guess. More data, not merging, is the cure, and a merge cannot be undone. (With no
    // readings at all, as after a refit that placed none, every column is "dependent", and all
    // would be merged into one.)
    if (s.ne.rows < n + k_min_residual_dof) break;
    // The information by the horizon: the readings so far and those to come. Each unit's share
    // of the readings to come is scaled by the share it got of those so far against what random
    // phases give it (A'A's diagonal against rows x E[a a']'s): readings left out fall where
    // the runs pause, after a run's last layers, and those keep missing them.
    auto information = s.ne.ata;
    if (to_come > 0 && !s.expected.empty()) {
      std::vector<double> got(n, 1.0);
      for (std::size_t u = 0; u < n; ++u) {
        const double expected = static_cast<double>(s.ne.rows) * s.expected[u * n + u];
        if (expected > 0 && s.ne.ata[u * n + u] > 0) got[u] = std::min(1.0, s.ne.ata[u * n + u] / expected);
      }
      for (std::size_t u = 0; u < n; ++u)
        for (std::size_t v = 0; v < n; ++v)
          information[u * n + v] += to_come * s.expected[u * n + v] * std::sqrt(got[u] * got[v]);
    }
    // A column the others explain even then: merged with the one before it (the failing pivot
    // depends on earlier columns only), or the one after for the first.
    if (const auto dep = dependent_column(information, n)) {
      merge_system(*dep > 0 ? *dep - 1 : 0, *dep > 0 ? *dep : 1);
      continue;
    }
    const auto sol = solve_nnls(s.ne);
    const auto cov = covariance(s.ne, information, sol.rss);
    if (cov.empty()) break;
    const double factor = interval_factor(s.ne.rows + static_cast<std::size_t>(to_come), n);
    projected.assign(n, k_nan);
    std::size_t worst = n;
    double worst_rel = 0;
    for (std::size_t u = 0; u < n; ++u) {
      const double power = options_.idle_w + sol.x[u];
      const double rel = power > 0 ? factor * std::sqrt(std::max(cov[u * n + u], 0.0)) / power : k_inf;
      projected[u] = rel;
      if (rel > options_.resolvable_rel && rel > worst_rel) worst_rel = rel, worst = u;
    }
    if (worst == n) break;
    projected.clear();
    // The neighbour it is most confounded with: the most negative correlation of the two powers.
    std::size_t partner = worst == 0 ? 1 : worst - 1;
    if (worst > 0 && worst + 1 < n) {
      const auto corr = [&](std::size_t v) { return cov[worst * n + v] / std::sqrt(cov[worst * n + worst] * cov[v * n + v]); };
      partner = corr(worst + 1) < corr(worst - 1) ? worst + 1 : worst - 1;
    }
    merge_system(worst, partner);
  }
  if (!result) return merges;
  // Without a merge the system is the one solve() would build; after one, its coverage counts
  // are bounds, so the result is built afresh.
  *result = merges ? solve() : solve(s);
  for (std::size_t u = 0; u < result->units.size(); ++u) {
    auto& unit = result->units[u];
    unit.projected_rel = u < projected.size() ? projected[u] : to_come > 0 ? k_nan : unit.rel_half_width();
    if (to_come > 0) unit.projected_rel = std::max(unit.projected_rel, trend_projection(unit, s.ne.rows, to_come));
    // Kept a quarter more readings apart: at most a few dozen points per unit however long the
    // runs go on (a trend needs one about half as many readings back).
    auto& h = history_[unit.layers];
    if (std::isfinite(unit.rel_half_width()) && (h.empty() || 4 * s.ne.rows >= 5 * h.back().first))
      h.emplace_back(s.ne.rows, unit.rel_half_width());
  }
  return merges;
}

}  // namespace jetperf::measure
