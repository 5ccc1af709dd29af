// The zoo against torchvision's published figures (weights meta "num_params" and "_ops").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <jetperf/models/network_builder.hpp>
#include <jetperf/models/zoo.hpp>

using namespace jetperf::models;

namespace {

/// The same ops re-inferred at another input size (append re-derives shapes, params, MACs).

}  // namespace

TEST(zoo, has_the_23_networks_sorted) {
  ASSERT_EQ(zoo().size(), 23u);
  EXPECT_TRUE(std::is_sorted(zoo().begin(), zoo().end(),
                             [](const zoo_entry& a, const zoo_entry& b) { return a.name < b.name; }));
  EXPECT_NE(find_model("resnet50"), nullptr);
  EXPECT_EQ(find_model("resnet51"), nullptr);
  try {
    build_model("resnet51");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("resnet51"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("mobilenet_v2"), std::string::npos);
  }
}

TEST(zoo, params_equal_published_exactly) {
  for (const auto& e : zoo()) {
    SCOPED_TRACE(e.name);
    const network net = e.build();
    EXPECT_EQ(net.name, e.name);
    EXPECT_EQ(net.input_shape, (shape{3, 224, 224}));
    EXPECT_EQ(net.params(), e.published_params);
  }
}

TEST(zoo, macs_match_published) {
  for (const auto& e : zoo()) {
    SCOPED_TRACE(e.name);
    const network net = e.build();
    // Published "_ops" is measured at the weights' crop size; re-infer there when it is not 224.
    const std::int64_t crop = e.published_resolution;
    const network measured = crop == 224 ? net : with_input_size(net, crop);
    const double gmacs = static_cast<double>(measured.macs()) / 1e9;
    // The published figure is rounded to 3 decimals (0.04 for shufflenet_v2_x0_5 is 0.040), so
    // the tolerance is 1% of it but never less than half a unit of its last digit.
    const double tolerance = std::max(0.01 * e.published_gmacs, 0.0005);
    EXPECT_NEAR(gmacs, e.published_gmacs, tolerance) << "at " << crop << "x" << crop;
    // Only torchvision's two larger-crop EfficientNets are published at another size.
    EXPECT_EQ(crop, e.name == "efficientnet_b1" ? 240 : e.name == "efficientnet_b2" ? 288 : 224) << e.name;
    EXPECT_EQ(measured.params(), net.params());
    EXPECT_GE(net.flops(), 2 * net.macs());
  }
}

TEST(zoo, functional_layer_counts_match_the_seed) {
  EXPECT_EQ(build_resnet50().functional_layer_count(), 127);
  EXPECT_EQ(build_mobilenet_v2().functional_layer_count(), 142);
  EXPECT_EQ(build_alexnet().functional_layer_count(), 22);
  EXPECT_EQ(build_mnasnet1_0().functional_layer_count(), 142);
}

TEST(zoo, every_network_is_well_formed) {
  for (const auto& e : zoo()) {
    SCOPED_TRACE(e.name);
    const network net = e.build();
    ASSERT_FALSE(net.ops.empty());
    // Blocks cover the ops exactly, in order.
    int next = 0;
    for (const auto& b : net.blocks) {
      EXPECT_EQ(b.first, next) << b.name;
      EXPECT_LT(b.first, b.last) << b.name;
      EXPECT_FALSE(b.type.empty()) << b.name;
      next = b.last;
    }
    EXPECT_EQ(next, static_cast<int>(net.ops.size()));
    // Op names are unique, inputs point backwards and the classifier ends in 1000 classes.
    for (std::size_t i = 0; i < net.ops.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) ASSERT_NE(net.ops[i].name, net.ops[j].name);
      for (int in : net.ops[i].inputs) EXPECT_LT(in, static_cast<int>(i));
    }
    EXPECT_EQ(net.ops.back().output_shape, (shape{1000}));
    // Both granularities account for every parameter and MAC exactly once.
    for (granularity g : {granularity::op, granularity::block}) {
      std::int64_t params = 0, macs = 0;
      for (const layer& l : layers_of(net, g)) {
        params += l.params;
        macs += l.macs;
        EXPECT_FALSE(l.inputs.empty()) << l.name;
      }
      EXPECT_EQ(params, net.params());
      EXPECT_EQ(macs, net.macs());
    }
  }
}

TEST(zoo, any_size_the_convolutions_leave_non_empty_builds_with_the_same_blocks) {
  const network at224 = build_model("resnet50");
  const network at320 = build_model("resnet50", 320);
  EXPECT_EQ(at320.input_shape, (shape{3, 320, 320}));
  ASSERT_EQ(at320.blocks.size(), at224.blocks.size());
  for (std::size_t i = 0; i < at224.blocks.size(); ++i) {
    EXPECT_EQ(at320.blocks[i].name, at224.blocks[i].name);
    EXPECT_EQ(at320.blocks[i].first, at224.blocks[i].first);
    EXPECT_EQ(at320.blocks[i].last, at224.blocks[i].last);
  }
  // Convolutions scale with the pixels; the classifier after the adaptive pool does not.
  EXPECT_EQ(at320.params(), at224.params());
  EXPECT_NEAR(static_cast<double>(at320.macs()) / static_cast<double>(at224.macs()), (320.0 * 320) / (224.0 * 224), 0.02);
  EXPECT_EQ(at320.ops.back().output_shape, at224.ops.back().output_shape);
  // alexnet needs 63 pixels, as in torchvision; below, the op that empties is named.
  EXPECT_NO_THROW(build_model("alexnet", 63));
  try {
    build_model("alexnet", 62);
    FAIL() << "alexnet built at 62 pixels";
  } catch (const shape_error& e) {
    EXPECT_EQ(e.op_name().rfind("features.", 0), 0u) << e.what();
  }
  for (const auto& e : zoo()) EXPECT_NO_THROW(build_model(e.name, e.published_resolution)) << e.name;
}
