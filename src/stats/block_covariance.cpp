#include <jetperf/stats/block_covariance.hpp>

namespace jetperf::stats {

void blocked_rows::add(const std::vector<std::pair<std::size_t, double>>& row, double rhs, std::size_t in_block) {
  entries.insert(entries.end(), row.begin(), row.end());
  start.push_back(entries.size());
  b.push_back(rhs);
  block.push_back(in_block);
}

std::size_t blocked_rows::blocks() const {
  std::size_t count = 0;
  for (std::size_t r = 0; r < block.size(); ++r) count += r == 0 || block[r] != block[r - 1];
  return count;
}

std::vector<double> block_covariance(const blocked_rows& rows, const normal_equations& ne) {
  const std::size_t n = ne.n, count = rows.size(), g = rows.blocks();
  if (g < 2 || count != ne.rows || n == 0) return {};
  std::vector<std::vector<double>> solutions;
  solutions.reserve(g);
  // Each block's own normal equations, taken from the whole's: the system without it.
  normal_equations without(n);
  const auto solve_without = [&](const normal_equations& part) {
    without.ata = ne.ata;
    without.atb = ne.atb;
    for (std::size_t i = 0; i < n * n; ++i) without.ata[i] -= part.ata[i];
    for (std::size_t i = 0; i < n; ++i) without.atb[i] -= part.atb[i];
    without.btb = ne.btb - part.btb;
    without.rows = ne.rows - part.rows;
    solutions.push_back(solve_nnls(without).x);
  };
  normal_equations part(n);
  std::vector<std::pair<std::size_t, double>> row;
  for (std::size_t r = 0; r < count; ++r) {
    if (r > 0 && rows.block[r] != rows.block[r - 1]) {
      solve_without(part);
      part = normal_equations(n);
    }
    row.assign(rows.entries.begin() + static_cast<std::ptrdiff_t>(rows.start[r]),
               rows.entries.begin() + static_cast<std::ptrdiff_t>(rows.start[r + 1]));
    part.add_row(row, rows.b[r]);
  }
  solve_without(part);
  std::vector<double> mean(n, 0.0), out(n * n, 0.0);
  for (const auto& x : solutions)
    for (std::size_t i = 0; i < n; ++i) mean[i] += x[i] / static_cast<double>(g);
  const double scale = static_cast<double>(g - 1) / static_cast<double>(g);
  for (const auto& x : solutions)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) out[i * n + j] += scale * (x[i] - mean[i]) * (x[j] - mean[j]);
  return out;
}

}  // namespace jetperf::stats
