#pragma once
// The least-squares unknowns' covariance from how the residuals scatter between blocks of rows
// (the cluster-robust or "sandwich" covariance). The usual sigma^2 (A'A)^-1 takes every row's
// residual as independent of every other's; the in-context estimator's readings are not: a run
// whose layers drew a little more than their mean (its core's share of the host, its clock)
// moves every reading over it the same way, so its few readings count as one, and the usual
// interval comes out too narrow (on the simulated Orin conv1's covered its power alone in 80% of
// jobs, not 95%). Blocks of whole runs hold those together.
#include <cstddef>
#include <utility>
#include <vector>

#include <jetperf/stats/nonnegative_least_squares.hpp>

namespace jetperf::stats {

/// The rows of A (sparse), their right-hand sides and each one's block, kept beside the normal
/// equations built from them.
struct blocked_rows {
  std::vector<std::size_t> start{0};  ///< row r's entries are [start[r], start[r + 1])
  std::vector<std::pair<std::size_t, double>> entries;
  std::vector<double> b;
  std::vector<std::size_t> block;  ///< non-decreasing
  void add(const std::vector<std::pair<std::size_t, double>>& row, double rhs, std::size_t in_block);
  std::size_t size() const { return b.size(); }
  /// Blocks that hold at least one row.
  std::size_t blocks() const;
};

/// The delete-one-block jackknife's covariance of the non-negative least-squares solution of `ne`
/// (built from `rows`): (G-1)/G sum_g (x_-g - mean)(x_-g - mean)', x_-g solved without block g's
/// rows. (The sandwich estimate from the residuals came out as narrow as the usual one here: with a
/// few dozen unknowns and a dozen runs, the fit absorbs most of each run's own offset.) n x n,
/// row-major; empty with fewer than two blocks or rows that do not match `ne`.
std::vector<double> block_covariance(const blocked_rows& rows, const normal_equations& ne);

}  // namespace jetperf::stats
