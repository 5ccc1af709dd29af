#include <jetperf/stats/nonnegative_least_squares.hpp>

#include <cmath>

#include <gtest/gtest.h>

using namespace jetperf::stats;

namespace {
normal_equations system_of(const std::vector<std::vector<double>>& a, const std::vector<double>& b) {
  normal_equations ne(a.front().size());
  for (std::size_t r = 0; r < a.size(); ++r) {
    std::vector<std::pair<std::size_t, double>> row;
    for (std::size_t c = 0; c < a[r].size(); ++c)
      if (a[r][c] != 0) row.emplace_back(c, a[r][c]);
    ne.add_row(row, b[r]);
  }
  return ne;
}
}  // namespace

TEST(nonnegative_least_squares, an_exact_positive_system_is_solved_exactly) {
  // x = (1, 2, 3)
  const auto ne = system_of({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {0, 1, 1}}, {1, 2, 3, 3, 5});
  const auto s = solve_nnls(ne);
  ASSERT_EQ(s.x.size(), 3u);
  EXPECT_NEAR(s.x[0], 1, 1e-12);
  EXPECT_NEAR(s.x[1], 2, 1e-12);
  EXPECT_NEAR(s.x[2], 3, 1e-12);
  EXPECT_NEAR(s.rss, 0, 1e-9);
  EXPECT_FALSE(s.at_bound[0] || s.at_bound[1] || s.at_bound[2]);
}

TEST(nonnegative_least_squares, a_negative_optimum_is_held_at_zero_and_the_rest_refitted) {
  // Unconstrained: x = (2, -1). With x1 >= 0, x1 = 0 and x0 fits rows 0 and 2 alone: (2 + 1) / 2.
  const auto ne = system_of({{1, 0}, {0, 1}, {1, 1}}, {2, -1, 1});
  const auto s = solve_nnls(ne);
  EXPECT_TRUE(s.at_bound[1]);
  EXPECT_FALSE(s.at_bound[0]);
  EXPECT_DOUBLE_EQ(s.x[1], 0.0);
  EXPECT_NEAR(s.x[0], 1.5, 1e-12);
  // Residuals (1.5 - 2), (0 + 1), (1.5 - 1): 0.25 + 1 + 0.25.
  EXPECT_NEAR(s.rss, 1.5, 1e-9);
}

TEST(nonnegative_least_squares, an_inverse_times_its_matrix_is_the_identity) {
  const std::vector<double> m{4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2};
  const auto inv = spd_inverse(m, 3);
  ASSERT_TRUE(inv);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += m[i * 3 + k] * (*inv)[k * 3 + j];
      EXPECT_NEAR(s, i == j ? 1.0 : 0.0, 1e-12);
    }
}

TEST(nonnegative_least_squares, a_column_equal_to_another_is_found_and_makes_no_inverse) {
  // Columns 1 and 2 always appear together with the same weight: indistinguishable.
  const auto ne = system_of({{1, 1, 1}, {0, 2, 2}, {1, 0, 0}, {3, 1, 1}}, {1, 2, 3, 4});
  EXPECT_FALSE(spd_inverse(ne.ata, 3));
  const auto dep = dependent_column(ne.ata, 3);
  ASSERT_TRUE(dep);
  EXPECT_EQ(*dep, 2u);
  EXPECT_FALSE(dependent_column({2, 0, 0, 3}, 2));
}

TEST(nonnegative_least_squares, eigenvalues_of_a_known_symmetric_matrix) {
  // [[2, 1], [1, 2]] has eigenvalues 1 and 3; diag(5, -1, 2) its diagonal.
  const auto ev = symmetric_eigenvalues({2, 1, 1, 2}, 2);
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_NEAR(ev[0], 1, 1e-12);
  EXPECT_NEAR(ev[1], 3, 1e-12);
  const auto d = symmetric_eigenvalues({5, 0, 0, 0, -1, 0, 0, 0, 2}, 3);
  EXPECT_NEAR(d[0], -1, 1e-12);
  EXPECT_NEAR(d[1], 2, 1e-12);
  EXPECT_NEAR(d[2], 5, 1e-12);
  // A 4x4 with a known spectrum: Q diag(1, 2, 4, 8) Q' for a Householder Q.
  const double v[4] = {0.5, 0.5, 0.5, 0.5};
  const double lam[4] = {1, 2, 4, 8};
  std::vector<double> m(16, 0.0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) {
        const double qik = (i == k) - 2 * v[i] * v[k], qjk = (j == k) - 2 * v[j] * v[k];
        m[i * 4 + j] += qik * lam[k] * qjk;
      }
  const auto e4 = symmetric_eigenvalues(m, 4);
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(e4[k], lam[k], 1e-10);
}
