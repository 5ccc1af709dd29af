#include <jetperf/stats/block_covariance.hpp>

#include <cmath>
#include <random>

#include <gtest/gtest.h>

using namespace jetperf::stats;

namespace {

// Rows estimating one mean (a = 1), in `blocks` blocks of `per_block` rows each, every block
// offset by its own amount: readings over one run that move together.
struct blocked_mean {
  blocked_rows rows;
  normal_equations ne{1};
  std::vector<double> block_means;
  blocked_mean(std::size_t blocks, std::size_t per_block, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> offset(0, 0.5), noise(0, 0.05);
    for (std::size_t g = 0; g < blocks; ++g) {
      const double shift = offset(rng);
      double sum = 0;
      for (std::size_t r = 0; r < per_block; ++r) {
        const double b = 3.0 + shift + noise(rng);
        rows.add({{0, 1.0}}, b, g);
        ne.add_row({{0, 1.0}}, b);
        sum += b;
      }
      block_means.push_back(sum / static_cast<double>(per_block));
    }
  }
};

}  // namespace

// For a mean over equal blocks, deleting one block at a time gives the variance of the block
// means over the blocks: sum (m_g - m)^2 / (G (G - 1)).
TEST(block_covariance, a_mean_over_equal_blocks_gets_the_block_means_variance) {
  const blocked_mean m(12, 40, 7);
  const auto v = block_covariance(m.rows, m.ne);
  ASSERT_EQ(v.size(), 1u);
  double mean = 0;
  for (double x : m.block_means) mean += x / 12;
  double expected = 0;
  for (double x : m.block_means) expected += (x - mean) * (x - mean) / (12.0 * 11.0);
  EXPECT_NEAR(v[0], expected, 1e-9 * expected);
  // The usual sigma^2 / N sees 480 independent rows: several times narrower.
  const double usual = [&] {
    double rss = 0;
    for (double b : m.rows.b) rss += (b - mean) * (b - mean);
    return rss / 479.0 / 480.0;
  }();
  EXPECT_GT(v[0], 5 * usual);
}

TEST(block_covariance, one_block_or_rows_that_do_not_match_give_none) {
  const blocked_mean one(1, 50, 3);
  EXPECT_TRUE(block_covariance(one.rows, one.ne).empty());
  const blocked_mean two(2, 50, 3);
  normal_equations other(1);
  other.add_row({{0, 1.0}}, 1.0);
  EXPECT_TRUE(block_covariance(two.rows, other).empty());
  EXPECT_EQ(two.rows.blocks(), 2u);
}

// Two unknowns; each block's solution is the whole's less that block: the covariance is (G-1)/G
// times the sum of squared deviations, in both unknowns and across them.
TEST(block_covariance, two_unknowns_get_the_delete_one_block_scatter) {
  blocked_rows rows;
  normal_equations ne(2);
  std::mt19937 rng(11);
  std::normal_distribution<double> noise(0, 0.1);
  for (std::size_t g = 0; g < 6; ++g)
    for (std::size_t r = 0; r < 20; ++r) {
      const double a0 = 0.25 + 0.5 * static_cast<double>(r % 3), a1 = 1.0 - 0.4 * static_cast<double>(r % 2);
      const double b = 2 * a0 + 3 * a1 + noise(rng) + 0.2 * static_cast<double>(g % 2);
      rows.add({{0, a0}, {1, a1}}, b, g);
      ne.add_row({{0, a0}, {1, a1}}, b);
    }
  const auto v = block_covariance(rows, ne);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_GT(v[0], 0);
  EXPECT_GT(v[3], 0);
  EXPECT_DOUBLE_EQ(v[1], v[2]);
  EXPECT_LE(v[1] * v[1], v[0] * v[3] * (1 + 1e-12));
}
