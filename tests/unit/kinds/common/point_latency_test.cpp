// The latency columns land under the keys the kind names, typed, with a null RSE for one run.
#include <gtest/gtest.h>

#include <limits>

#include <jetperf/kinds/common/point_latency.hpp>

using namespace jetperf;

namespace {
constexpr column_key<std::int64_t> runs{"runs"};
constexpr column_key<double> mean{"mean"}, median{"median"}, lo{"lo"}, hi{"hi"}, sd{"sd"}, rse{"rse"};
}  // namespace

TEST(point_latency, writes_each_statistic_under_the_kinds_keys) {
  row r;
  kinds::common::put_latency(r, {runs, mean, median, lo, hi, sd, rse}, stats::compute_latency_stats({1.0, 2.0, 3.0, 6.0}));
  EXPECT_EQ(r.get(runs), 4);
  EXPECT_DOUBLE_EQ(*r.get(mean), 3.0);
  EXPECT_DOUBLE_EQ(*r.get(median), 2.5);
  EXPECT_DOUBLE_EQ(*r.get(lo), 1.0);
  EXPECT_DOUBLE_EQ(*r.get(hi), 6.0);
  EXPECT_NEAR(*r.get(sd), 2.1602468994692865, 1e-12);
  EXPECT_NEAR(*r.get(rse), 2.1602468994692865 / 2.0 / 3.0, 1e-12);
  EXPECT_EQ(r.cells().size(), 7u);
}

TEST(point_latency, one_run_has_no_standard_error_and_says_null) {
  row r;
  kinds::common::put_latency(r, {runs, mean, median, lo, hi, sd, rse}, stats::compute_latency_stats({0.5}));
  EXPECT_EQ(r.get(runs), 1);
  ASSERT_TRUE(r.find("rse"));
  EXPECT_TRUE(r.find("rse")->is_null());
}
