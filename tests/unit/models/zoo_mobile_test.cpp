// The mobile families of the zoo (MobileNetV2/V3, MNASNet, EfficientNet B0-B2, ShuffleNetV2):
// their structure and the seed's block lists (params and MACs of every zoo network: zoo_test).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include <jetperf/models/network.hpp>
#include <jetperf/models/zoo.hpp>

#include "zoo_lookup.hpp"

namespace jetperf::models {
namespace detail {
// Test seam defined in src/models/zoo_efficientnet.cpp (declared in the private zoo_common.hpp).
network build_efficientnet_at(const std::string& name, std::int64_t resolution);
}  // namespace detail

TEST(zoo_mobile_blocks, mobilenet_v2_has_the_seeds_21_blocks_and_142_layers) {
  const network net = build_mobilenet_v2();
  ASSERT_EQ(net.blocks.size(), 21u);
  EXPECT_EQ(net.blocks[0].name, "features.0");
  EXPECT_EQ(net.blocks[0].type, "Conv2dNormActivation");
  EXPECT_EQ(net.blocks[2].name, "features.2");
  EXPECT_EQ(net.blocks[2].type, "InvertedResidual");
  EXPECT_EQ(net.blocks[18].name, "features.18");
  EXPECT_EQ(net.blocks[19].name, "classifier.0");
  EXPECT_EQ(net.blocks[19].type, "Dropout");
  EXPECT_EQ(net.blocks[20].name, "classifier.1");
  EXPECT_EQ(net.blocks[20].type, "Linear");
  EXPECT_EQ(net.functional_layer_count(), 142);
  // features.18 ends in its own ReLU6; forward()'s functional pool and flatten open classifier.0,
  // where the seed runs them.
  EXPECT_EQ(net.ops[static_cast<std::size_t>(net.blocks[18].last) - 1].type, op_type::relu6);
  EXPECT_EQ(net.ops[static_cast<std::size_t>(net.blocks[19].first)].type, op_type::adaptive_avg_pool);
  EXPECT_EQ(net.ops[static_cast<std::size_t>(net.blocks[19].first) + 1].type, op_type::flatten);
}

TEST(zoo_mobile_blocks, mobilenet_v2_uses_torchvision_module_paths) {
  const network net = build_mobilenet_v2();
  const op* expand = find_op(net, "features.2.conv.0.0");
  ASSERT_NE(expand, nullptr);
  EXPECT_EQ(expand->type, op_type::conv2d);
  EXPECT_EQ(expand->output_shape, (shape{96, 112, 112}));
  const op* dw = find_op(net, "features.2.conv.1.0");
  ASSERT_NE(dw, nullptr);
  EXPECT_EQ(dw->groups, 96);
  EXPECT_EQ(dw->output_shape, (shape{96, 56, 56}));
  ASSERT_NE(find_op(net, "features.2.conv.0.2"), nullptr);
  EXPECT_EQ(find_op(net, "features.2.conv.0.2")->type, op_type::relu6);
  ASSERT_NE(find_op(net, "features.2.conv.3"), nullptr);
  EXPECT_EQ(find_op(net, "features.2.conv.3")->type, op_type::batch_norm);
  // features.2 changes width (16 -> 24): no residual; features.3 keeps it.
  EXPECT_EQ(find_op(net, "features.2.add"), nullptr);
  const op* add = find_op(net, "features.3.add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->module, "");
  // expand_ratio 1 (features.1) has no expand conv: conv.0 is the depthwise one.
  ASSERT_NE(find_op(net, "features.1.conv.0.0"), nullptr);
  EXPECT_EQ(find_op(net, "features.1.conv.0.0")->groups, 32);
}

TEST(zoo_mobile_blocks, mnasnet1_0_has_the_seeds_19_blocks_and_142_layers) {
  const network net = build_mnasnet1_0();
  ASSERT_EQ(net.blocks.size(), 19u);
  EXPECT_EQ(net.blocks[0].name, "layers.0");
  EXPECT_EQ(net.blocks[0].type, "Conv2d");
  EXPECT_EQ(net.blocks[8].name, "layers.8");
  EXPECT_EQ(net.blocks[8].type, "Sequential");
  EXPECT_EQ(net.blocks[16].name, "layers.16");
  EXPECT_EQ(net.blocks[18].name, "classifier.1");
  EXPECT_EQ(net.functional_layer_count(), 142);
  ASSERT_NE(find_op(net, "layers.8.1.layers.3"), nullptr);
  EXPECT_EQ(find_op(net, "layers.8.1.layers.3")->groups, 72);
  EXPECT_NE(find_op(net, "layers.8.1.add"), nullptr);
  EXPECT_EQ(find_op(net, "layers.8.0.add"), nullptr);
}

TEST(zoo_mobile_blocks, mnasnet0_5_rounds_depths_like_torchvision) {
  const network net = build_mnasnet0_5();
  // _get_depths(0.5) = [16, 8, 16, 24, 40, 48, 96, 160].
  ASSERT_NE(find_op(net, "layers.6"), nullptr);
  EXPECT_EQ(find_op(net, "layers.6")->output_shape, (shape{8, 112, 112}));
  ASSERT_NE(find_op(net, "layers.14"), nullptr);
  EXPECT_EQ(find_op(net, "layers.14")->input_shapes.at(0), (shape{160, 7, 7}));
}

TEST(zoo_mobile_blocks, mobilenet_v3_has_squeeze_excitation_and_its_classifier) {
  const network net = build_mobilenet_v3_large();
  EXPECT_EQ(net.blocks.size(), 22u);  // features.0..16, avgpool, classifier.0..3
  // features.4 = bneck(24, 5, 72, 40, SE): block.0 expand, block.1 depthwise, block.2 SE.
  const op* fc1 = find_op(net, "features.4.block.2.fc1");
  ASSERT_NE(fc1, nullptr);
  EXPECT_TRUE(fc1->bias);
  EXPECT_EQ(fc1->out_channels, 24);  // _make_divisible(72 // 4, 8)
  ASSERT_NE(find_op(net, "features.4.block.2.scale_activation"), nullptr);
  EXPECT_EQ(find_op(net, "features.4.block.2.scale_activation")->type, op_type::hardsigmoid);
  ASSERT_NE(find_op(net, "features.4.block.0.1"), nullptr);
  EXPECT_DOUBLE_EQ(find_op(net, "features.4.block.0.1")->eps, 0.001);
  const block* avgpool = find_block(net, "avgpool");
  ASSERT_NE(avgpool, nullptr);
  EXPECT_EQ(avgpool->type, "AdaptiveAvgPool2d");
  ASSERT_NE(find_op(net, "classifier.0"), nullptr);
  EXPECT_EQ(find_op(net, "classifier.0")->output_shape, (shape{1280}));
  EXPECT_EQ(build_mobilenet_v3_small().blocks.size(), 18u);
}

TEST(zoo_mobile_blocks, efficientnet_at_another_resolution_keeps_params_and_rejects_unknown_names) {
  const network b1 = detail::build_efficientnet_at("efficientnet_b1", 240);
  EXPECT_EQ(b1.input_shape, (shape{3, 240, 240}));
  EXPECT_EQ(b1.params(), build_efficientnet_b1().params());
  EXPECT_GT(b1.macs(), build_efficientnet_b1().macs());
  EXPECT_THROW(detail::build_efficientnet_at("efficientnet_b9", 224), std::invalid_argument);
}

TEST(zoo_mobile_blocks, efficientnet_stages_are_one_block_each) {
  const network net = build_efficientnet_b0();
  ASSERT_EQ(net.blocks.size(), 12u);  // features.0..8, avgpool, classifier.0, classifier.1
  EXPECT_EQ(net.blocks[1].name, "features.1");
  EXPECT_EQ(net.blocks[1].type, "Sequential");
  const op* sd = find_op(net, "features.2.1.stochastic_depth");
  ASSERT_NE(sd, nullptr);
  EXPECT_EQ(sd->type, op_type::dropout);
  EXPECT_NE(find_op(net, "features.2.1.add"), nullptr);
  EXPECT_EQ(find_op(net, "features.2.0.add"), nullptr);
  // SE squeeze = max(1, input_channels // 4), SiLU inside.
  ASSERT_NE(find_op(net, "features.2.1.block.2.fc1"), nullptr);
  EXPECT_EQ(find_op(net, "features.2.1.block.2.fc1")->out_channels, 6);
  EXPECT_EQ(find_op(net, "features.2.1.block.2.activation")->type, op_type::silu);
  // B2's width multiplier makes the last conv 4 * 352 wide.
  const network b2 = build_efficientnet_b2();
  ASSERT_NE(find_op(b2, "features.8.0"), nullptr);
  EXPECT_EQ(find_op(b2, "features.8.0")->out_channels, 1408);
}

TEST(zoo_mobile_blocks, shufflenet_splits_stride_1_blocks_into_halves) {
  const network net = build_shufflenet_v2_x1_0();
  EXPECT_EQ(net.blocks.size(), 24u);  // conv1.0..2, maxpool, 16 InvertedResidual, conv5.0..2, fc
  const block* s = find_block(net, "stage2.1");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->type, "InvertedResidual");
  const op* half = find_op(net, "stage2.1.chunk#2");
  ASSERT_NE(half, nullptr);
  EXPECT_EQ(half->output_shape, (shape{58, 28, 28}));
  const op* b2 = find_op(net, "stage2.1.branch2.0");
  ASSERT_NE(b2, nullptr);
  EXPECT_EQ(b2->input_shapes.at(0), (shape{58, 28, 28}));
  EXPECT_EQ(find_op(net, "stage2.1.branch1.0"), nullptr);
  ASSERT_NE(find_op(net, "stage2.0.branch1.0"), nullptr);
  const op* shuffle = find_op(net, "stage4.3.channel_shuffle");
  ASSERT_NE(shuffle, nullptr);
  EXPECT_EQ(shuffle->output_shape, (shape{464, 7, 7}));
}

}  // namespace jetperf::models
