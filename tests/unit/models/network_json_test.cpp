#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/models/network_json.hpp>

using namespace jetperf::models;
using nlohmann::json;

namespace {

json small_net() {
  return json::parse(R"({
    "name": "tiny_resnet",
    "input": [3, 32, 32],
    "layers": [
      {"name": "conv1", "type": "conv2d", "out_channels": 16, "kernel": 3, "padding": 1, "bias": false,
       "output_shape": [16, 32, 32]},
      {"name": "bn1", "type": "batch_norm"},
      {"name": "relu", "type": "relu"},
      {"name": "b.conv", "type": "conv2d", "out_channels": 16, "kernel": [3, 3], "padding": [1, 1],
       "bias": false, "block": "b"},
      {"name": "b.bn", "type": "batch_norm", "block": "b"},
      {"name": "b.add", "type": "add", "inputs": ["b.bn", "relu"], "block": "b"},
      {"name": "pool", "type": "max_pool", "kernel": 2},
      {"name": "gap", "type": "adaptive_avg_pool", "output_size": 1},
      {"name": "flatten", "type": "flatten"},
      {"name": "fc", "type": "linear", "out_features": 10, "output_shape": [10]}
    ]})");
}

struct caught {
  std::string field;
  std::string message;
};

caught error_of(const json& j) {
  try {
    network_from_json(j);
  } catch (const jetperf::validation_error& e) {
    return {e.field(), e.what()};
  }
  return {"", "no error"};
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(network_json, reads_a_valid_network) {
  const network n = network_from_json(small_net());
  EXPECT_EQ(n.name, "tiny_resnet");
  ASSERT_EQ(n.ops.size(), 10u);
  EXPECT_EQ(n.ops[0].params, 16 * 3 * 9);
  EXPECT_EQ(n.ops[5].inputs, (std::vector<int>{4, 2}));
  EXPECT_EQ(n.ops[6].output_shape, (shape{16, 16, 16}));  // stride defaults to the kernel
  EXPECT_EQ(n.ops[9].params, 16 * 10 + 10);               // linear bias defaults to true
  EXPECT_EQ(n.ops[5].module, "");                         // add is functional
  EXPECT_EQ(n.ops[4].module, "b.bn");
  // conv1, bn1, relu, b, pool, gap, (flatten +) fc: the functional flatten opens the block after it.
  ASSERT_EQ(n.blocks.size(), 7u);
  EXPECT_EQ(n.blocks[3].name, "b");
  EXPECT_EQ(n.blocks[3].first, 3);
  EXPECT_EQ(n.blocks[3].last, 6);
  EXPECT_EQ(n.blocks[5].name, "gap");
  EXPECT_EQ(n.blocks[5].last, 8);
  EXPECT_EQ(n.blocks[6].name, "fc");
  EXPECT_EQ(n.blocks[6].first, 8);
  EXPECT_EQ(n.functional_layer_count(), 8 + 1);

  const auto blocks = layers_of(n, granularity::block);
  EXPECT_EQ(blocks.at(3).input_shapes.at(0), (shape{16, 32, 32}));
  EXPECT_EQ(blocks.at(6).output_shape, (shape{10}));
}

TEST(network_json, unknown_type_lists_the_valid_ones) {
  json j = small_net();
  j["layers"][1]["type"] = "batchnorm";
  const caught e = error_of(j);
  EXPECT_EQ(e.field, "spec.network.layers[1]");
  EXPECT_TRUE(contains(e.message, "\"bn1\"")) << e.message;
  EXPECT_TRUE(contains(e.message, "batchnorm")) << e.message;
  EXPECT_TRUE(contains(e.message, "batch_norm, relu")) << e.message;
}

TEST(network_json, unknown_input_is_named) {
  json j = small_net();
  j["layers"][5]["inputs"] = json::array({"b.bn", "relu2"});
  const caught e = error_of(j);
  EXPECT_EQ(e.field, "spec.network.layers[5]");
  EXPECT_TRUE(contains(e.message, "\"b.add\"")) << e.message;
  EXPECT_TRUE(contains(e.message, "unknown input \"relu2\"")) << e.message;
  // A later layer is not a valid input either.
  j["layers"][5]["inputs"] = json::array({"b.bn", "fc"});
  EXPECT_TRUE(contains(error_of(j).message, "unknown input \"fc\""));
}

TEST(network_json, declared_shape_must_match) {
  json j = small_net();
  j["layers"][0]["output_shape"] = json::array({16, 30, 30});
  const caught e = error_of(j);
  EXPECT_EQ(e.field, "spec.network.layers[0]");
  EXPECT_TRUE(contains(e.message, "\"conv1\"")) << e.message;
  EXPECT_TRUE(contains(e.message, "inconsistent shapes: declared [16, 30, 30], computed [16, 32, 32]")) << e.message;
}

TEST(network_json, add_of_mismatched_shapes) {
  json j = small_net();
  j["layers"][3]["out_channels"] = 32;
  const caught e = error_of(j);
  EXPECT_EQ(e.field, "spec.network.layers[5]");
  EXPECT_TRUE(contains(e.message, "\"b.add\"")) << e.message;
  EXPECT_TRUE(contains(e.message, "cannot add shapes [32, 32, 32] and [16, 32, 32]")) << e.message;
}

TEST(network_json, conv_channels_must_divide_into_groups) {
  json j = small_net();
  j["layers"][3]["groups"] = 3;
  const caught e = error_of(j);
  EXPECT_EQ(e.field, "spec.network.layers[3]");
  EXPECT_TRUE(contains(e.message, "\"b.conv\"")) << e.message;
  EXPECT_TRUE(contains(e.message, "input channels 16 are not divisible by groups 3")) << e.message;
}

TEST(network_json, bad_fields_and_attributes) {
  json j = small_net();
  j["layers"][0]["kernal"] = 3;
  caught e = error_of(j);
  EXPECT_EQ(e.field, "spec.network.layers[0]");
  EXPECT_TRUE(contains(e.message, "attribute \"kernal\" does not apply to conv2d")) << e.message;

  j = small_net();
  j["layers"][0].erase("out_channels");
  EXPECT_TRUE(contains(error_of(j).message, "missing attribute out_channels"));

  j = small_net();
  j["layers"][0]["kernel"] = 2.5;
  EXPECT_TRUE(contains(error_of(j).message, "kernel must be an integer"));

  j = small_net();
  j["layers"][0]["kernel"] = 3.0;  // an integral float is an integer
  EXPECT_EQ(network_from_json(j).ops[0].kernel_h, 3);
  j["layers"][0]["kernel"] = 1e300;
  EXPECT_TRUE(contains(error_of(j).message, "kernel must be at most"));

  j = small_net();
  j["layers"][6]["dilation"] = 2;  // max_pool: no backend pools with dilation
  e = error_of(j);
  EXPECT_EQ(e.field, "spec.network.layers[6]");
  EXPECT_TRUE(contains(e.message, "attribute \"dilation\" does not apply to max_pool")) << e.message;

  j = small_net();
  j["layers"][0]["stride"] = 0;
  EXPECT_TRUE(contains(error_of(j).message, "stride must be in [1, "));

  j = small_net();
  j["layers"][2]["name"] = "bn1";
  e = error_of(j);
  EXPECT_EQ(e.field, "spec.network.layers[2]");
  EXPECT_TRUE(contains(e.message, "used by an earlier layer"));

  j = small_net();
  j["layers"][8]["block"] = "b";  // b ended at layer 5
  EXPECT_TRUE(contains(error_of(j).message, "block \"b\" is not contiguous"));

  j = small_net();
  j["layers"][0]["type"] = "linear";
  j["layers"][0].erase("kernel");
  j["layers"][0].erase("padding");
  j["layers"][0].erase("bias");
  j["layers"][0].erase("out_channels");
  j["layers"][0].erase("output_shape");
  j["layers"][0]["out_features"] = 4;
  EXPECT_TRUE(contains(error_of(j).message, "flatten first"));

  j = small_net();
  j["input"] = json::array({3, 32});
  EXPECT_EQ(error_of(j).field, "spec.network.input");
  j = small_net();
  j["layers"] = json::array();
  EXPECT_EQ(error_of(j).field, "spec.network.layers");
  j = small_net();
  j.erase("name");
  EXPECT_EQ(error_of(j).field, "spec.network.name");
  j = small_net();
  j["layers"][4] = 7;
  EXPECT_EQ(error_of(j).field, "spec.network.layers[4]");
  EXPECT_EQ(error_of(json::array()).field, "spec.network");

  j = small_net();
  for (int i = 0; i < 4100; ++i) j["layers"].push_back({{"name", "r" + std::to_string(i)}, {"type", "dropout"}});
  e = error_of(j);
  EXPECT_EQ(e.field, "spec.network.layers");
  EXPECT_TRUE(contains(e.message, "at most 4096 layers"));
}

TEST(network_json, field_prefix_is_the_callers) {
  json j = small_net();
  j["layers"][1]["type"] = "nope";
  try {
    network_from_json(j, "network");
    FAIL();
  } catch (const jetperf::validation_error& e) {
    EXPECT_EQ(e.field(), "network.layers[1]");
  }
}
