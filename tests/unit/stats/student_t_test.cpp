#include <jetperf/stats/student_t.hpp>

#include <gtest/gtest.h>

using jetperf::stats::t95;

TEST(student_t, the_95_percent_quantile_against_published_values) {
  EXPECT_EQ(t95(0), 0.0);
  EXPECT_DOUBLE_EQ(t95(1), 12.706);
  EXPECT_DOUBLE_EQ(t95(9), 2.262);
  EXPECT_DOUBLE_EQ(t95(30), 2.042);
  // Beyond the table (R: qt(0.975, df)): 2.0395, 2.0086, 1.9840, 1.9623.
  EXPECT_NEAR(t95(31), 2.0395, 1e-4);
  EXPECT_NEAR(t95(50), 2.0086, 1e-4);
  EXPECT_NEAR(t95(100), 1.9840, 1e-4);
  EXPECT_NEAR(t95(1000), 1.9623, 1e-4);
  EXPECT_NEAR(t95(100000000), 1.95996, 1e-4);
  // It narrows as the degrees of freedom grow, without a step where the table ends.
  for (std::size_t v = 2; v < 200; ++v) EXPECT_LT(t95(v), t95(v - 1)) << v;
}
