// The RegNet builders against torchvision: the stage widths and depths from_init_params yields,
// and module names (params and MACs of every zoo network: zoo_test).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <jetperf/models/network.hpp>
#include <jetperf/models/zoo.hpp>

#include "zoo_lookup.hpp"

using namespace jetperf::models;

namespace {

struct expected_regnet {
  const char* name;
  network (*build)();
  std::vector<std::int64_t> widths;   // per stage, after the group-width adjustment
  std::vector<std::int64_t> depths;   // blocks per stage
  std::int64_t group_width;
  bool se;
};

const std::vector<expected_regnet>& cases() {
  static const std::vector<expected_regnet> all = {
      {"regnet_y_400mf", build_regnet_y_400mf, {48, 104, 208, 440}, {1, 3, 6, 6}, 8, true},
      {"regnet_y_800mf", build_regnet_y_800mf, {64, 144, 320, 784}, {1, 3, 8, 2}, 16, true},
      {"regnet_y_1_6gf", build_regnet_y_1_6gf, {48, 120, 336, 888}, {2, 6, 17, 2}, 24, true},
      {"regnet_x_400mf", build_regnet_x_400mf, {32, 64, 160, 400}, {1, 2, 7, 12}, 16, false},
      {"regnet_x_800mf", build_regnet_x_800mf, {64, 128, 288, 672}, {1, 3, 7, 5}, 16, false},
      {"regnet_x_3_2gf", build_regnet_x_3_2gf, {96, 192, 432, 1008}, {2, 6, 15, 2}, 48, false},
  };
  return all;
}

std::string block_path(int stage, int index) {
  const std::string s = std::to_string(stage);
  return "trunk_output.block" + s + ".block" + s + "-" + std::to_string(index);
}

}  // namespace

TEST(zoo_regnet, flops_count_more_than_the_convolutions) {
  for (const auto& c : cases()) {
    const network net = c.build();
    EXPECT_EQ(net.name, c.name);
    EXPECT_GT(net.flops(), 2 * net.macs()) << c.name;
  }
}

TEST(zoo_regnet, nine_blocks_with_torchvision_names_and_types) {
  const std::vector<std::string> names = {"stem.0",
                                          "stem.1",
                                          "stem.2",
                                          "trunk_output.block1",
                                          "trunk_output.block2",
                                          "trunk_output.block3",
                                          "trunk_output.block4",
                                          "avgpool",
                                          "fc"};
  const std::vector<std::string> types = {"Conv2d",   "BatchNorm2d", "ReLU",
                                          "AnyStage", "AnyStage",    "AnyStage",
                                          "AnyStage", "AdaptiveAvgPool2d", "Linear"};
  for (const auto& c : cases()) {
    const network net = c.build();
    ASSERT_EQ(net.blocks.size(), names.size()) << c.name;
    for (std::size_t i = 0; i < names.size(); ++i) {
      EXPECT_EQ(net.blocks[i].name, names[i]) << c.name;
      EXPECT_EQ(net.blocks[i].type, types[i]) << c.name;
    }
    // avgpool is the module alone; the functional flatten opens fc, where the seed runs it.
    EXPECT_EQ(net.blocks[7].last - net.blocks[7].first, 1) << c.name;
    EXPECT_EQ(net.ops.at(net.blocks[8].first).type, op_type::flatten) << c.name;
    EXPECT_EQ(net.ops.back().output_shape, (shape{1000})) << c.name;
    EXPECT_EQ(net.ops.back().name, "fc") << c.name;
    EXPECT_EQ(net.input_shape, (shape{3, 224, 224})) << c.name;
  }
}

TEST(zoo_regnet, stage_widths_depths_and_groups_follow_from_init_params) {
  for (const auto& c : cases()) {
    const network net = c.build();
    std::int64_t hw = 56;  // the stem halves 224 to 112; every stage halves again
    for (int s = 0; s < 4; ++s) {
      const block& stage = net.blocks.at(3 + s);
      EXPECT_EQ(net.ops.at(stage.last - 1).output_shape, (shape{c.widths[s], hw, hw})) << c.name << " stage " << s;
      hw = (hw + 1) / 2;
      // Exactly `depth` blocks: the last one exists, the next one does not.
      const std::string last = block_path(s + 1, static_cast<int>(c.depths[s]) - 1);
      EXPECT_NE(find_op(net, last + ".activation"), nullptr) << last;
      EXPECT_EQ(find_op(net, block_path(s + 1, static_cast<int>(c.depths[s])) + ".f.a.0"), nullptr) << c.name;
      // The grouped 3x3 has width / group_width groups.
      const op* conv_b = find_op(net, last + ".f.b.0");
      ASSERT_NE(conv_b, nullptr) << last;
      EXPECT_EQ(conv_b->groups, c.widths[s] / std::min(c.group_width, c.widths[s])) << last;
      EXPECT_EQ(conv_b->kernel_h, 3);
      EXPECT_EQ(conv_b->pad_h, 1);
      EXPECT_EQ(find_op(net, last + ".f.se.fc1") != nullptr, c.se) << last;
    }
    EXPECT_EQ(hw, 4);
  }
}

TEST(zoo_regnet, first_block_of_y_400mf_has_projection_se_and_names) {
  const network net = build_regnet_y_400mf();
  const std::string p = block_path(1, 0);
  const std::vector<std::string> expected = {
      p + ".proj.0", p + ".proj.1", p + ".f.a.0", p + ".f.a.1", p + ".f.a.2", p + ".f.b.0",
      p + ".f.b.1", p + ".f.b.2", p + ".f.se.avgpool", p + ".f.se.fc1", p + ".f.se.activation",
      p + ".f.se.fc2", p + ".f.se.scale_activation", p + ".f.se.mul", p + ".f.c.0", p + ".f.c.1",
      p + ".add", p + ".activation"};
  const int first = net.blocks.at(3).first;
  ASSERT_GE(net.ops.size(), first + expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(net.ops[first + i].name, expected[i]);

  // Stem output 32 channels at 112x112; the stage's first block strides in both branches.
  const op& proj = net.ops[first];
  EXPECT_EQ(proj.input_shapes.at(0), (shape{32, 112, 112}));
  EXPECT_EQ(proj.output_shape, (shape{48, 56, 56}));
  EXPECT_EQ(proj.stride_h, 2);
  EXPECT_EQ(proj.params, 32 * 48);
  // SE squeezes to round(0.25 * width_in) = 8 channels (the block input's width, not 48).
  const op* fc1 = find_op(net, p + ".f.se.fc1");
  ASSERT_NE(fc1, nullptr);
  EXPECT_EQ(fc1->output_shape, (shape{8, 1, 1}));
  EXPECT_EQ(fc1->params, 48 * 8 + 8);
  EXPECT_EQ(find_op(net, p + ".f.se.fc2")->params, 8 * 48 + 48);
  EXPECT_EQ(find_op(net, p + ".f.se.mul")->output_shape, (shape{48, 56, 56}));
  // 48 / group width 8 = 6 groups.
  EXPECT_EQ(find_op(net, p + ".f.b.0")->groups, 6);
  EXPECT_EQ(find_op(net, p + ".f.b.0")->params, 48 * 8 * 9);
  // The residual adds the projection to f(x), then the block's ReLU.
  const op* add = find_op(net, p + ".add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->module, "");
  EXPECT_EQ(add->inputs.at(0), first + 1);
  EXPECT_EQ(find_op(net, p + ".activation")->module, p + ".activation");

  // The second block keeps width and stride, so it has no projection and adds its input.
  const std::string q = block_path(2, 1);
  EXPECT_EQ(find_op(net, q + ".proj.0"), nullptr);
  const op* add2 = find_op(net, q + ".add");
  ASSERT_NE(add2, nullptr);
  const op* prev_act = find_op(net, block_path(2, 0) + ".activation");
  ASSERT_NE(prev_act, nullptr);
  EXPECT_EQ(add2->inputs.at(0), static_cast<int>(prev_act - net.ops.data()));
  // Later SE blocks squeeze relative to the stage width: round(0.25 * 104) = 26.
  EXPECT_EQ(find_op(net, q + ".f.se.fc1")->output_shape, (shape{26, 1, 1}));
}

TEST(zoo_regnet, regnet_x_has_no_squeeze_excitation) {
  const network net = build_regnet_x_3_2gf();
  for (const op& o : net.ops) {
    EXPECT_EQ(o.name.find(".se."), std::string::npos) << o.name;
    EXPECT_NE(o.type, op_type::mul) << o.name;
  }
  // 88 stem-to-stage adjustment: width 96 with group width 48 gives 2 groups.
  EXPECT_EQ(find_op(net, block_path(1, 0) + ".f.b.0")->groups, 2);
  EXPECT_EQ(find_op(net, "fc")->params, 1008 * 1000 + 1000);
}
