// The layer tables of resnet50 and mobilenet_v2 at both granularities (the seed's two studies).
#include <gtest/gtest.h>

#include <jetperf/api/model_views.hpp>
#include <jetperf/models/zoo.hpp>

using namespace jetperf::models;
using jetperf::api::layer_table_json;
using jetperf::api::network_summary_json;
using nlohmann::json;

namespace {

const layer& named(const std::vector<layer>& layers, const std::string& name) {
  for (const auto& l : layers) {
    if (l.name == name) return l;
  }
  throw std::runtime_error("no layer " + name);
}

const json& row(const json& table, const std::string& name) {
  for (const auto& r : table.at("layers")) {
    if (r.at("name") == name) return r;
  }
  throw std::runtime_error("no row " + name);
}

}  // namespace

TEST(layer_table, resnet50_blocks) {
  const network net = build_resnet50();
  const auto blocks = layers_of(net, granularity::block);
  ASSERT_EQ(blocks.size(), 22u);
  EXPECT_EQ(blocks[0].name, "conv1");
  EXPECT_EQ(blocks[0].type, "Conv2d");
  EXPECT_EQ(blocks[3].name, "maxpool");
  EXPECT_EQ(blocks[4].name, "layer1.0");
  EXPECT_EQ(blocks[4].type, "Bottleneck");
  EXPECT_EQ(blocks[19].name, "layer4.2");
  EXPECT_EQ(blocks[21].name, "fc");

  const json t = layer_table_json(net, granularity::block, 1);
  EXPECT_EQ(t.at("layers").size(), 22u);
  EXPECT_EQ(row(t, "layer1.0").at("input_shapes"), json::parse("[[1, 64, 56, 56]]"));
  EXPECT_EQ(row(t, "layer1.0").at("output_shape"), json::parse("[1, 256, 56, 56]"));
  EXPECT_EQ(row(t, "layer2.0").at("output_shape"), json::parse("[1, 512, 28, 28]"));
  EXPECT_EQ(row(t, "layer4.2").at("output_shape"), json::parse("[1, 2048, 7, 7]"));
  // avgpool ends in its module's own output; the functional torch.flatten runs at the start of
  // fc, as the seed runs it, so fc reads [N, 2048, 1, 1].
  EXPECT_EQ(row(t, "avgpool").at("output_shape"), json::parse("[1, 2048, 1, 1]"));
  EXPECT_EQ(row(t, "fc").at("input_shapes"), json::parse("[[1, 2048, 1, 1]]"));
  EXPECT_EQ(row(t, "fc").at("params"), 2048 * 1000 + 1000);
  EXPECT_EQ(row(t, "fc").at("macs"), 2048 * 1000);
  // layer1.0's downsample: 64 -> 256 1x1 conv (16384) and its BatchNorm (512) on top of the main path.
  EXPECT_EQ(row(t, "layer1.0").at("params"), 4096 + 128 + 36864 + 128 + 16384 + 512 + 16384 + 512);

  const json b8 = layer_table_json(net, granularity::block, 8);
  EXPECT_EQ(row(b8, "conv1").at("input_shapes"), json::parse("[[8, 3, 224, 224]]"));
  EXPECT_EQ(b8.at("batch"), 8);
}

TEST(layer_table, resnet50_ops) {
  const network net = build_resnet50();
  const auto ops = layers_of(net, granularity::op);
  // 53 conv, 53 batch norm, 49 relu calls, 16 adds, maxpool, avgpool, flatten, fc.
  ASSERT_EQ(ops.size(), 175u);
  const layer& relu3 = named(ops, "layer1.0.relu#3");
  EXPECT_EQ(relu3.type, "relu");
  EXPECT_EQ(net.ops[static_cast<std::size_t>(relu3.first)].module, "layer1.0.relu");
  const layer& add = named(ops, "layer1.0.add");
  EXPECT_EQ(add.type, "add");
  ASSERT_EQ(add.input_shapes.size(), 2u);
  EXPECT_EQ(add.input_shapes[0], (shape{256, 56, 56}));
  EXPECT_EQ(add.input_shapes[1], (shape{256, 56, 56}));
  // v1.5: the stride sits on conv2.
  EXPECT_EQ(named(ops, "layer2.0.conv1").output_shape, (shape{128, 56, 56}));
  EXPECT_EQ(named(ops, "layer2.0.conv2").output_shape, (shape{128, 28, 28}));
  EXPECT_EQ(named(ops, "layer2.0.downsample.0").output_shape, (shape{512, 28, 28}));
  EXPECT_EQ(named(ops, "conv1").macs, 64LL * 112 * 112 * 3 * 7 * 7);
}

TEST(layer_table, mobilenet_v2_blocks) {
  const network net = build_mobilenet_v2();
  const auto blocks = layers_of(net, granularity::block);
  ASSERT_EQ(blocks.size(), 21u);
  EXPECT_EQ(blocks[0].name, "features.0");
  EXPECT_EQ(blocks[0].type, "Conv2dNormActivation");
  EXPECT_EQ(blocks[1].type, "InvertedResidual");
  EXPECT_EQ(blocks[19].name, "classifier.0");
  EXPECT_EQ(blocks[20].name, "classifier.1");

  const json t = layer_table_json(net, granularity::block);
  EXPECT_EQ(row(t, "features.1").at("input_shapes"), json::parse("[[1, 32, 112, 112]]"));
  EXPECT_EQ(row(t, "features.1").at("output_shape"), json::parse("[1, 16, 112, 112]"));
  EXPECT_EQ(row(t, "features.17").at("output_shape"), json::parse("[1, 320, 7, 7]"));
  // forward()'s adaptive_avg_pool2d and flatten are functional glue and open classifier.0 (the
  // rule of network_builder.hpp), so features.18 ends in its own 1280x7x7.
  EXPECT_EQ(row(t, "features.18").at("output_shape"), json::parse("[1, 1280, 7, 7]"));
  EXPECT_EQ(row(t, "classifier.0").at("input_shapes"), json::parse("[[1, 1280, 7, 7]]"));
  EXPECT_EQ(row(t, "classifier.0").at("output_shape"), json::parse("[1, 1280]"));
  EXPECT_EQ(row(t, "classifier.1").at("input_shapes"), json::parse("[[1, 1280]]"));
  EXPECT_EQ(row(t, "classifier.1").at("output_shape"), json::parse("[1, 1000]"));

  const auto ops = layers_of(net, granularity::op);
  ASSERT_EQ(ops.size(), 153u);
  EXPECT_EQ(named(ops, "features.18.2").output_shape, (shape{1280, 7, 7}));
  EXPECT_EQ(named(ops, "features.18.2").type, "relu6");
  EXPECT_EQ(named(ops, "features.1.conv.0.0").params, 32 * 9);  // depthwise 3x3
}

TEST(layer_table, summary_keys) {
  const json s = network_summary_json(build_resnet50());
  EXPECT_EQ(s.at("name"), "resnet50");
  EXPECT_EQ(s.at("input_shape"), json::parse("[3, 224, 224]"));
  EXPECT_EQ(s.at("params"), 25557032);
  EXPECT_EQ(s.at("functional_layer_count"), 127);
  EXPECT_EQ(s.at("ops"), 175);
  EXPECT_EQ(s.at("blocks"), 22);
  EXPECT_GT(s.at("flops").get<std::int64_t>(), 2 * s.at("macs").get<std::int64_t>());

  const json t = layer_table_json(build_alexnet(), granularity::op, 1);
  EXPECT_EQ(t.at("granularity"), "op");
  const json& first = t.at("layers").at(0);
  for (const char* key : {"index", "name", "type", "input_shapes", "output_shape", "params", "macs", "flops"}) {
    EXPECT_TRUE(first.contains(key)) << key;
  }
  EXPECT_EQ(first.at("index"), 0);
  EXPECT_EQ(first.at("output_shape"), json::parse("[1, 64, 55, 55]"));
}
