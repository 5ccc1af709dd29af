#include <gtest/gtest.h>

#include <set>

#include <jetperf/models/op.hpp>

using namespace jetperf::models;

TEST(op, names_round_trip_for_every_type) {
  std::set<std::string> names;
  for (op_type t : all_op_types()) {
    const std::string n = to_string(t);
    EXPECT_TRUE(names.insert(n).second) << n;
    ASSERT_TRUE(parse_op_type(n).has_value()) << n;
    EXPECT_EQ(*parse_op_type(n), t);
  }
  EXPECT_EQ(all_op_types().size(), 19u);
  EXPECT_EQ(to_string(op_type::conv2d), "conv2d");
  EXPECT_EQ(to_string(op_type::adaptive_avg_pool), "adaptive_avg_pool");
  EXPECT_FALSE(parse_op_type("Conv2d").has_value());
  EXPECT_FALSE(parse_op_type("").has_value());
}

TEST(op, shapes) {
  EXPECT_EQ(elements({3, 224, 224}), 150528);
  EXPECT_EQ(elements({1000}), 1000);
  EXPECT_EQ(format_shape({3, 224, 224}, 1), "[1, 3, 224, 224]");
  EXPECT_EQ(format_shape({2048}, 8), "[8, 2048]");
}
