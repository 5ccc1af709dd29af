// The deterministic weights and inputs every layer backend computes on.
#include <jetperf/backend/layer_data.hpp>

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/models/network_builder.hpp>

using namespace jetperf;
using namespace jetperf::workloads;
using models::network_builder;

TEST(layer_data, deterministic_and_in_range) {
  std::vector<float> a(1000), b(1000), c(1000);
  fill_uniform(a, 7, -1, 1);
  fill_uniform(b, 7, -1, 1);
  fill_uniform(c, 8, -1, 1);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  double mean = 0;
  for (float v : a) {
    EXPECT_GE(v, -1.0f);
    EXPECT_LT(v, 1.0f);
    mean += v;
  }
  EXPECT_NEAR(mean / a.size(), 0.0, 0.1);
  // Pinned values: the generator must not change across platforms or releases.
  std::vector<float> first(3);
  fill_uniform(first, 0, 0, 1);
  EXPECT_FLOAT_EQ(first[0], 0.652448475f);
  EXPECT_FLOAT_EQ(first[1], 0.166396439f);
  EXPECT_FLOAT_EQ(first[2], 0.509878993f);
  std::vector<float> signed_values(2);
  fill_uniform(signed_values, 12345, -1, 1);
  EXPECT_FLOAT_EQ(signed_values[0], -0.968341827f);
  EXPECT_FLOAT_EQ(signed_values[1], 0.689913511f);
}

TEST(layer_data, weights_follow_fan_in_and_differ_per_op) {
  network_builder b("t", {8, 4, 4});
  const auto c1 = b.conv2d("c1", b.input(), 16, {3, 1, 1, 2, 1, true});
  b.batch_norm("bn", c1);
  const auto net = b.build();
  const auto w0 = make_op_weights(net.ops[0], 0);
  ASSERT_EQ(w0.weight.size(), 16u * 4 * 9);
  ASSERT_EQ(w0.bias.size(), 16u);
  const float bound = 1.0f / std::sqrt(36.0f);
  for (float v : w0.weight) EXPECT_LE(std::fabs(v), bound);
  for (float v : w0.bias) EXPECT_LE(std::fabs(v), 0.1f);
  EXPECT_NE(make_op_weights(net.ops[0], 1).weight, w0.weight);
  EXPECT_EQ(make_op_weights(net.ops[0], 0).weight, w0.weight);
  const auto bn = make_op_weights(net.ops[1], 1);
  ASSERT_EQ(bn.running_var.size(), 16u);
  for (float v : bn.running_var) EXPECT_TRUE(v >= 0.5f && v <= 1.5f);
  for (float v : bn.weight) EXPECT_TRUE(v >= 0.5f && v <= 1.5f);
  EXPECT_TRUE(make_op_weights(net.ops[1], 1).weight == bn.weight);
  const auto in = make_layer_input({8, 4, 4}, 2, 0, 0);
  EXPECT_EQ(in.size(), 256u);
  EXPECT_NE(make_layer_input({8, 4, 4}, 2, 0, 1), in);
}
