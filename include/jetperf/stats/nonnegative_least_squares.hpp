#pragma once
// Small dense least squares for the in-context layer power estimator: the problem arrives as its
// normal equations (A'A, A'b, b'b), which stay n x n however many sensor readings there are
// (n = the layers of one network, a few hundred at most), so the cost does not grow with the
// run. Non-negative least squares is Lawson and Hanson's active-set method on them; the
// covariance needs the inverse of a symmetric positive definite block (Cholesky), and the
// condition number the eigenvalues of a symmetric matrix (cyclic Jacobi rotations).
#include <cstddef>
#include <optional>
#include <vector>

namespace jetperf::stats {

/// A'A (n x n, row-major), A'b and b'b of an overdetermined system A x = b with `rows` rows.
struct normal_equations {
  std::size_t n = 0;
  std::vector<double> ata;
  std::vector<double> atb;
  double btb = 0;
  std::size_t rows = 0;

  explicit normal_equations(std::size_t size = 0) : n(size), ata(size * size, 0.0), atb(size, 0.0) {}
  /// Adds one row given sparsely as (column, coefficient) pairs, with its right-hand side.
  void add_row(const std::vector<std::pair<std::size_t, double>>& row, double b);
};

struct nnls_solution {
  std::vector<double> x;
  std::vector<bool> at_bound;  ///< x[i] is held at 0 by its constraint
  double rss = 0;              ///< residual sum of squares |A x - b|^2
};

/// min |A x - b|^2 subject to x >= 0.
nnls_solution solve_nnls(const normal_equations& ne);

/// The inverse of symmetric positive definite `m` (n x n, row-major); nullopt when it is not
/// positive definite to working precision (a singular design: some unknowns cannot be told apart).
std::optional<std::vector<double>> spd_inverse(const std::vector<double>& m, std::size_t n);

/// The first column of symmetric `m` that is (to working precision) a combination of the columns
/// before it, where a Cholesky factorisation breaks down; nullopt when `m` is positive definite.
std::optional<std::size_t> dependent_column(const std::vector<double>& m, std::size_t n);

/// The eigenvalues of symmetric `m` (n x n, row-major), ascending.
std::vector<double> symmetric_eigenvalues(std::vector<double> m, std::size_t n);

}  // namespace jetperf::stats
