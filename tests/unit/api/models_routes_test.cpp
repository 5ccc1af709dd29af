// GET /v1/models and GET /v1/models/{name}: the zoo's summaries and layer tables, and the errors
// for an unknown network or a bad query, checked against proto/openapi.json too.
#include "api_fixture.hpp"
#include "json_schema_check.hpp"

namespace jetperf::test {
namespace {

class models_routes_test : public api_fixture {
 protected:
  nlohmann::json ok(const std::string& target) {
    const auto res = call("GET", target);
    EXPECT_EQ(res.status, 200) << target << ": " << res.body;
    return json_of(res);
  }

  void expect_conforms(const nlohmann::json& body, const std::string& schema) {
    const auto doc = contract();
    const auto violations = schema_violations(doc, component_schema(doc, schema), body);
    EXPECT_TRUE(violations.empty()) << schema << ": " << (violations.empty() ? "" : violations[0]);
  }
};

const nlohmann::json* find_named(const nlohmann::json& list, const std::string& name) {
  for (const auto& item : list)
    if (item.value("name", std::string()) == name) return &item;
  return nullptr;
}

TEST_F(models_routes_test, list_has_the_23_zoo_networks_with_published_figures) {
  const auto j = ok("/v1/models");
  ASSERT_TRUE(j["models"].is_array()) << j.dump();
  EXPECT_EQ(j["models"].size(), 23u);
  const auto* resnet = find_named(j["models"], "resnet50");
  ASSERT_NE(resnet, nullptr);
  EXPECT_EQ((*resnet)["params"], 25557032);
  EXPECT_EQ((*resnet)["published_params"], 25557032);
  EXPECT_NEAR((*resnet)["published_gmacs"].get<double>(), 4.089, 1e-9);
  EXPECT_EQ((*resnet)["blocks"], 22);
  EXPECT_EQ((*resnet)["functional_layer_count"], 127);
  EXPECT_EQ((*resnet)["input_shape"], nlohmann::json({3, 224, 224}));
  // Sorted by name, as the zoo is.
  EXPECT_EQ(j["models"][0]["name"], "alexnet");
  expect_conforms(j, "ModelList");
  // A second call answers the same (the cached list).
  EXPECT_EQ(ok("/v1/models"), j);
}

TEST_F(models_routes_test, show_resnet50_blocks_with_shapes) {
  const auto j = ok("/v1/models/resnet50");
  EXPECT_EQ(j["granularity"], "block");
  EXPECT_EQ(j["batch"], 1);
  ASSERT_EQ(j["layers"].size(), 22u);
  const auto* fc = find_named(j["layers"], "fc");
  ASSERT_NE(fc, nullptr);
  // fc reads avgpool's own [N, 2048, 1, 1] and flattens it first, as the seed does.
  EXPECT_EQ((*fc)["input_shapes"], nlohmann::json::parse("[[1,2048,1,1]]"));
  EXPECT_EQ((*fc)["output_shape"], nlohmann::json({1, 1000}));
  EXPECT_EQ((*fc)["params"], 2048 * 1000 + 1000);
  EXPECT_EQ(j["layers"][0]["name"], "conv1");
  EXPECT_EQ(j["layers"][0]["input_shapes"], nlohmann::json::parse("[[1,3,224,224]]"));
  expect_conforms(j, "LayerTable");
}

TEST_F(models_routes_test, batch_goes_in_front_of_every_shape) {
  const auto j = ok("/v1/models/resnet50?batch=4&granularity=block");
  EXPECT_EQ(j["batch"], 4);
  const auto* fc = find_named(j["layers"], "fc");
  ASSERT_NE(fc, nullptr);
  EXPECT_EQ((*fc)["input_shapes"], nlohmann::json::parse("[[4,2048,1,1]]"));
  for (const auto& l : j["layers"]) {
    EXPECT_EQ(l["output_shape"][0], 4) << l.dump();
    for (const auto& s : l["input_shapes"]) EXPECT_EQ(s[0], 4) << l.dump();
  }
}

TEST_F(models_routes_test, networks_are_listed_at_their_published_resolution_and_shown_at_any_size) {
  const auto list = ok("/v1/models");
  const auto* b2 = find_named(list["models"], "efficientnet_b2");
  ASSERT_NE(b2, nullptr);
  EXPECT_EQ((*b2)["published_resolution"], 288);
  EXPECT_EQ((*b2)["input_shape"], nlohmann::json({3, 288, 288}));
  // Its MACs there are torchvision's published 1.088 G.
  EXPECT_NEAR((*b2)["macs"].get<double>() / 1e9, 1.088, 0.011);
  const auto small = ok("/v1/models/resnet18?input_size=112");
  EXPECT_EQ(small["layers"][0]["input_shapes"][0], nlohmann::json({1, 3, 112, 112}));
  EXPECT_EQ(small["layers"][0]["output_shape"], nlohmann::json({1, 64, 56, 56}));
  const auto res = call("GET", "/v1/models/alexnet?input_size=32");
  ASSERT_EQ(res.status, 400) << res.body;
  EXPECT_EQ(json_of(res)["error"]["field"], "input_size");
  EXPECT_NE(json_of(res)["error"]["message"].get<std::string>().find("alexnet cannot run at 32x32"), std::string::npos);
}

TEST_F(models_routes_test, op_granularity_lists_more_layers_than_blocks) {
  const auto blocks = ok("/v1/models/mobilenet_v2?granularity=block");
  const auto ops = ok("/v1/models/mobilenet_v2?granularity=op");
  EXPECT_EQ(blocks["layers"].size(), 21u);
  EXPECT_EQ(ops["granularity"], "op");
  EXPECT_GT(ops["layers"].size(), blocks["layers"].size());
  EXPECT_EQ(ops["layers"].size(), ops["ops"].get<std::size_t>());
  expect_conforms(ops, "LayerTable");
}

TEST_F(models_routes_test, unknown_model_is_404_naming_it_and_the_known_ones) {
  const auto res = call("GET", "/v1/models/nosuchnet");
  ASSERT_EQ(res.status, 404) << res.body;
  const auto j = json_of(res);
  EXPECT_EQ(j["error"]["code"], "not_found");
  const auto message = j["error"]["message"].get<std::string>();
  EXPECT_NE(message.find("nosuchnet"), std::string::npos) << message;
  EXPECT_NE(message.find("resnet50"), std::string::npos) << message;
  expect_conforms(j, "Error");
}

TEST_F(models_routes_test, bad_query_values_are_400_naming_the_parameter) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/v1/models/resnet50?granularity=layer", "granularity"},
      {"/v1/models/resnet50?granularity=", "granularity"},
      {"/v1/models/resnet50?batch=0", "batch"},
      {"/v1/models/resnet50?batch=x", "batch"},
      {"/v1/models/resnet50?batch=100000", "batch"},
      {"/v1/models/resnet50?depth=2", "depth"},
      {"/v1/models?granularity=op", "granularity"},
  };
  for (const auto& [target, field] : cases) {
    const auto res = call("GET", target);
    ASSERT_EQ(res.status, 400) << target << ": " << res.body;
    EXPECT_EQ(json_of(res)["error"]["field"], field) << target << ": " << res.body;
  }
  // The message of a bad granularity names the valid values.
  const auto res = call("GET", "/v1/models/resnet50?granularity=layer");
  EXPECT_NE(json_of(res)["error"]["message"].get<std::string>().find("op or block"), std::string::npos) << res.body;
}

TEST_F(models_routes_test, models_routes_are_post_free) {
  EXPECT_EQ(call("POST", "/v1/models").status, 405);
  EXPECT_EQ(call("DELETE", "/v1/models/resnet50").status, 405);
}

}  // namespace
}  // namespace jetperf::test
