// The zoo's blocks against the seed tool's layers, as real torchvision gives them
// (tests/fixtures/seed_blocks_torchvision.json, written by tests/fixtures/seed_blocks.py): the
// same count, names, order and classes, and each block ends in its module's own output, so that
// block indices line up with the seed's datasets.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <jetperf/models/zoo.hpp>

#include <support/fixtures.hpp>

using namespace jetperf::models;
using nlohmann::json;

TEST(zoo_seed_blocks, every_network_has_the_seeds_layers_and_module_output_shapes) {
  JETPERF_LOAD_FIXTURE(text, "seed_blocks_torchvision.json");
  const json seed = json::parse(text).at("networks");
  // Both ways: no zoo network without a seed list, no seed list without a zoo network.
  ASSERT_EQ(seed.size(), zoo().size());
  for (const auto& entry : zoo()) {
    SCOPED_TRACE(entry.name);
    ASSERT_TRUE(seed.contains(entry.name));
    const json& expected = seed.at(entry.name);
    const network net = entry.build();
    const auto layers = layers_of(net, granularity::block);

    shape input = {1};
    input.insert(input.end(), net.input_shape.begin(), net.input_shape.end());
    EXPECT_EQ(input, expected.at("input").get<shape>());

    const json& rows = expected.at("layers");
    ASSERT_EQ(layers.size(), rows.size());
    for (std::size_t i = 0; i < layers.size(); ++i) {
      SCOPED_TRACE("block " + std::to_string(i) + " " + layers[i].name);
      EXPECT_EQ(layers[i].name, rows[i].at("name").get<std::string>());
      EXPECT_EQ(layers[i].type, rows[i].at("type").get<std::string>());
      // The fixture's shapes have torch's batch dimension; the zoo's are per sample.
      shape out = {1};
      out.insert(out.end(), layers[i].output_shape.begin(), layers[i].output_shape.end());
      EXPECT_EQ(out, rows[i].at("output_shape").get<shape>());
    }
  }
}
