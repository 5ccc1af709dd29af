#include <jetperf/measure/layer_power_estimate.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <jetperf/measure/nonnegative_least_squares.hpp>

namespace jetperf::measure {

namespace {

constexpr double k_z95 = 1.959963984540054;
constexpr double k_inf = std::numeric_limits<double>::infinity();
constexpr double k_two_pi = 6.283185307179586;

// sigma^2 (A'A)^-1 of the dynamic powers; empty when the design is singular or has no spare rows.
std::vector<double> covariance(const normal_equations& ne, double rss) {
  if (ne.rows <= ne.n) return {};
  auto inv = spd_inverse(ne.ata, ne.n);
  if (!inv) return {};
  const double sigma2 = rss / static_cast<double>(ne.rows - ne.n);
  for (double& v : *inv) v *= sigma2;
  return *inv;
}

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
};

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
  system s{normal_equations(n), std::vector<std::size_t>(n, 0), std::vector<double>(n, 0.0)};
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
  out.residual_rms_w = s.ne.rows ? std::sqrt(sol.rss / static_cast<double>(s.ne.rows)) : 0.0;
  out.condition_number = s.ne.rows ? condition_number(s.ne) : k_inf;
  double var_sum = cov.empty() ? k_inf : 0.0;
  for (std::size_t u = 0; u < n; ++u) {
    layer_unit lu;
    lu.layers = units_[u];
    lu.power_w = options_.idle_w + sol.x[u];
    lu.power_ci95_w = cov.empty() ? k_inf : k_z95 * std::sqrt(std::max(cov[u * n + u], 0.0));
    lu.duration_s = s.duration_s[u];
    lu.energy_j = lu.power_w * lu.duration_s;
    lu.energy_ci95_j = lu.power_ci95_w * lu.duration_s;
    lu.readings = s.coverage[u];
    lu.at_bound = sol.at_bound[u];
    out.sum_energy_j += lu.energy_j;
    if (!cov.empty())
      for (std::size_t v = 0; v < n; ++v) var_sum += s.duration_s[u] * s.duration_s[v] * cov[u * n + v];
    out.units.push_back(std::move(lu));
  }
  out.sum_energy_ci95_j = std::isfinite(var_sum) ? k_z95 * std::sqrt(std::max(var_sum, 0.0)) : k_inf;
  if (out.unresolvable.empty() && cov.empty())
    out.unresolvable = s.ne.rows <= n ? "fewer readings than unknowns" : "the readings cannot separate the layers";
  // Intervals from a handful of readings per unknown rest on a residual variance that is itself
  // a guess (and on z where t would be wider): not enough to call the estimate done.
  out.converged = out.unresolvable.empty() && s.ne.rows >= k_min_readings_per_unit * n &&
                  std::all_of(out.units.begin(), out.units.end(),
                              [&](const layer_unit& lu) { return lu.rel_half_width() <= options_.target_rel; });
  return out;
}

layer_power_result layer_power_estimator::solve() const { return solve(build()); }

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

std::size_t layer_power_estimator::merge_unresolvable(double elapsed_s, double max_time_s, layer_power_result* result) {
  std::size_t merges = 0;
  system s = build();
  // Merging two columns of A adds them: A'A gains the sum of their rows and columns, A'b the sum
  // of their entries. So each merge updates the system in O(n^2) instead of rebuilding it.
  const auto merge_system = [&](std::size_t u, std::size_t v) {
    if (u > v) std::swap(u, v);
    auto& ne = s.ne;
    const std::size_t n = ne.n;
    std::vector<double> ata((n - 1) * (n - 1));
    const auto src = [&](std::size_t i) { return i < v ? i : i + 1; };
    for (std::size_t i = 0; i + 1 < n; ++i)
      for (std::size_t j = 0; j + 1 < n; ++j) {
        const std::size_t a = src(i), b = src(j);
        double val = ne.ata[a * n + b];
        if (a == u) val += ne.ata[v * n + b];
        if (b == u) val += ne.ata[a * n + v];
        if (a == u && b == u) val += ne.ata[v * n + v];
        ata[i * (n - 1) + j] = val;
      }
    ne.ata = std::move(ata);
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
  while (units_.size() > 1) {
    const std::size_t n = units_.size();
    // No more readings than unknowns: a unit no reading has covered yet looks like one the others
    // explain, and more data, not merging, is the cure. (With no readings at all, as after a
    // refit that placed none, every column is "dependent", and all would be merged into one.)
    if (s.ne.rows <= n) break;
    // A column the others already explain: merged with the one before it (the failing pivot
    // depends on earlier columns only), or the one after for the first.
    if (const auto dep = dependent_column(s.ne.ata, n)) {
      merge_system(*dep > 0 ? *dep - 1 : 0, *dep > 0 ? *dep : 1);
      continue;
    }
    const auto sol = solve_nnls(s.ne);
    const auto cov = covariance(s.ne, sol.rss);
    if (cov.empty()) break;
    std::size_t worst = n;
    double worst_rel = 0;
    for (std::size_t u = 0; u < n; ++u) {
      const double energy = (options_.idle_w + sol.x[u]) * s.duration_s[u];
      const double rel = energy > 0 ? k_z95 * std::sqrt(std::max(cov[u * n + u], 0.0)) * s.duration_s[u] / energy : k_inf;
      const double limit = options_.resolvable_rel;
      if (rel <= limit) continue;
      // The interval shrinks as 1 / sqrt(readings): at this rate, when would it be resolved?
      const double needed_s = elapsed_s * (rel / limit) * (rel / limit);
      if (needed_s <= max_time_s) continue;
      if (rel > worst_rel) worst_rel = rel, worst = u;
    }
    if (worst == n) break;
    // The neighbour it is most confounded with: the most negative correlation of the two powers.
    std::size_t partner = worst == 0 ? 1 : worst - 1;
    if (worst > 0 && worst + 1 < n) {
      const auto corr = [&](std::size_t v) { return cov[worst * n + v] / std::sqrt(cov[worst * n + worst] * cov[v * n + v]); };
      partner = corr(worst + 1) < corr(worst - 1) ? worst + 1 : worst - 1;
    }
    merge_system(worst, partner);
  }
  // Without a merge the system is the one solve() would build; after one, its coverage counts
  // are bounds, so the result is built afresh.
  if (result) *result = merges ? solve() : solve(s);
  return merges;
}

}  // namespace jetperf::measure
