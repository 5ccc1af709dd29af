#include <jetperf/stats/nonnegative_least_squares.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace jetperf::stats {

namespace {

// Cholesky factor L (lower, row-major) of the sub-matrix of `m` on `idx`; false when a pivot is
// not clearly positive (relative to the diagonal it came from), with its position in `failed`.
bool cholesky(const std::vector<double>& m, std::size_t n, const std::vector<std::size_t>& idx, std::vector<double>& l,
              std::size_t* failed = nullptr) {
  const std::size_t k = idx.size();
  l.assign(k * k, 0.0);
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j <= i; ++j) {
      double s = m[idx[i] * n + idx[j]];
      for (std::size_t p = 0; p < j; ++p) s -= l[i * k + p] * l[j * k + p];
      if (i == j) {
        const double d = m[idx[i] * n + idx[i]];
        if (!(s > 1e-12 * d) || d <= 0) {
          if (failed) *failed = i;
          return false;
        }
        l[i * k + i] = std::sqrt(s);
      } else {
        l[i * k + j] = s / l[j * k + j];
      }
    }
  }
  return true;
}

// Solves L L' y = rhs in place.
void cholesky_solve(const std::vector<double>& l, std::size_t k, std::vector<double>& y) {
  for (std::size_t i = 0; i < k; ++i) {
    double s = y[i];
    for (std::size_t p = 0; p < i; ++p) s -= l[i * k + p] * y[p];
    y[i] = s / l[i * k + i];
  }
  for (std::size_t i = k; i-- > 0;) {
    double s = y[i];
    for (std::size_t p = i + 1; p < k; ++p) s -= l[p * k + i] * y[p];
    y[i] = s / l[i * k + i];
  }
}

// The unconstrained solution on the free set `idx`; false when that block is singular.
bool solve_on(const normal_equations& ne, const std::vector<std::size_t>& idx, std::vector<double>& z) {
  std::vector<double> l;
  if (!cholesky(ne.ata, ne.n, idx, l)) return false;
  z.resize(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) z[i] = ne.atb[idx[i]];
  cholesky_solve(l, idx.size(), z);
  return true;
}

}  // namespace

void normal_equations::add_row(const std::vector<std::pair<std::size_t, double>>& row, double b) {
  for (const auto& [i, a] : row) {
    atb[i] += a * b;
    for (const auto& [j, c] : row) ata[i * n + j] += a * c;
  }
  btb += b * b;
  ++rows;
}

nnls_solution solve_nnls(const normal_equations& ne) {
  const std::size_t n = ne.n;
  nnls_solution out;
  out.x.assign(n, 0.0);
  out.at_bound.assign(n, true);
  std::vector<bool> free(n, false);
  std::vector<double>& x = out.x;
  const auto residual = [&] {
    // |Ax - b|^2 = x'A'Ax - 2 x'A'b + b'b
    double rss = ne.btb;
    for (std::size_t i = 0; i < n; ++i) {
      rss -= 2 * x[i] * ne.atb[i];
      for (std::size_t j = 0; j < n; ++j) rss += x[i] * ne.ata[i * n + j] * x[j];
    }
    out.rss = std::max(rss, 0.0);
  };
  // Where the unconstrained optimum is already non-negative (every layer draws more than idle:
  // the usual case) it is the answer, in one factorisation rather than one per variable.
  {
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    std::vector<double> z;
    if (n > 0 && solve_on(ne, all, z) && std::all_of(z.begin(), z.end(), [](double v) { return v > 0; })) {
      x = z;
      out.at_bound.assign(n, false);
      residual();
      return out;
    }
  }
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i) scale = std::max(scale, std::fabs(ne.atb[i]));
  const double tol = 1e-12 * std::max(scale, 1e-300);
  // Each pass frees one variable; the inner loop may bind some again. 3n passes is far beyond
  // what the method needs (it terminates in finitely many), and guards against cycling.
  for (std::size_t pass = 0; pass < 3 * n + 3; ++pass) {
    // Gradient of -|Ax - b|^2 / 2: w = A'b - A'A x.
    std::size_t best = n;
    double best_w = tol;
    for (std::size_t j = 0; j < n; ++j) {
      if (free[j]) continue;
      double w = ne.atb[j];
      for (std::size_t i = 0; i < n; ++i) w -= ne.ata[j * n + i] * x[i];
      if (w > best_w) best_w = w, best = j;
    }
    if (best == n) break;
    free[best] = true;
    for (;;) {
      std::vector<std::size_t> idx;
      for (std::size_t j = 0; j < n; ++j)
        if (free[j]) idx.push_back(j);
      std::vector<double> z;
      if (!solve_on(ne, idx, z)) {
        // The new variable is collinear with the free ones: it cannot lower the residual.
        free[best] = false;
        break;
      }
      bool feasible = true;
      for (double v : z) feasible = feasible && v > 0;
      if (feasible) {
        for (std::size_t i = 0; i < idx.size(); ++i) x[idx[i]] = z[i];
        break;
      }
      // Step from x towards z as far as the first variable that would turn negative.
      double alpha = 1;
      for (std::size_t i = 0; i < idx.size(); ++i)
        if (z[i] <= 0) alpha = std::min(alpha, x[idx[i]] / (x[idx[i]] - z[i]));
      for (std::size_t i = 0; i < idx.size(); ++i) {
        x[idx[i]] += alpha * (z[i] - x[idx[i]]);
        if (x[idx[i]] <= 1e-15 * std::max(1.0, std::fabs(z[i]))) x[idx[i]] = 0, free[idx[i]] = false;
      }
      bool any = false;
      for (std::size_t j = 0; j < n; ++j) any = any || free[j];
      if (!any) break;
    }
  }
  for (std::size_t j = 0; j < n; ++j) out.at_bound[j] = !free[j];
  residual();
  return out;
}

std::optional<std::vector<double>> spd_inverse(const std::vector<double>& m, std::size_t n) {
  std::vector<std::size_t> idx(n);
  for (std::size_t i = 0; i < n; ++i) idx[i] = i;
  std::vector<double> l;
  if (!cholesky(m, n, idx, l)) return std::nullopt;
  std::vector<double> inv(n * n, 0.0);
  std::vector<double> col(n);
  for (std::size_t c = 0; c < n; ++c) {
    std::fill(col.begin(), col.end(), 0.0);
    col[c] = 1;
    cholesky_solve(l, n, col);
    for (std::size_t r = 0; r < n; ++r) inv[r * n + c] = col[r];
  }
  return inv;
}

std::optional<std::size_t> dependent_column(const std::vector<double>& m, std::size_t n) {
  std::vector<std::size_t> idx(n);
  for (std::size_t i = 0; i < n; ++i) idx[i] = i;
  std::vector<double> l;
  std::size_t failed = 0;
  if (cholesky(m, n, idx, l, &failed)) return std::nullopt;
  return failed;
}

std::vector<double> symmetric_eigenvalues(std::vector<double> a, std::size_t n) {
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, total = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) (i == j ? total : off) += a[i * n + j] * a[i * n + j];
    if (off <= 1e-26 * (total + off) || off == 0) break;
    for (std::size_t p = 0; p + 1 < n; ++p) {
      for (std::size_t q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (apq == 0) continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (std::size_t k = 0; k < n; ++k) {  // columns p and q
          const double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (std::size_t k = 0; k < n; ++k) {  // rows p and q
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
      }
    }
  }
  std::vector<double> ev(n);
  for (std::size_t i = 0; i < n; ++i) ev[i] = a[i * n + i];
  std::sort(ev.begin(), ev.end());
  return ev;
}

}  // namespace jetperf::stats
