// The layers spec at the sizes a 1 MiB body allows: thousands of user networks (their names
// checked for duplicates in linear time), long name lists, and a user network whose working set
// is past int64 (refused, not wrapped to a size that fits).
#include <jetperf/kinds/layers/layers_spec.hpp>

#include <string>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>

#include "../spec_json.hpp"

using nlohmann::json;
using namespace jetperf::kinds;

namespace {

json normalize_layers_spec(const json& spec, const jetperf::platform::board_offer& off) {
  return jetperf::test::normalized_json<layers_spec>("layers", spec, off);
}
std::vector<json> expand_layers_spec(const json& stored) { return jetperf::test::expanded_json<layers_spec>(stored); }


jetperf::platform::board_offer offered() {
  jetperf::platform::board_offer o;
  o.has_cuda_device = false;
  o.memory_bytes = 8LL << 30;
  return o;
}

json one_relu(const std::string& name, json input = {3}) {
  return {{"name", name}, {"input", std::move(input)}, {"layers", json::array({{{"name", "r"}, {"type", "relu"}}})}};
}

jetperf::validation_error refusal(const json& spec) {
  try {
    normalize_layers_spec(spec, offered());
  } catch (const jetperf::validation_error& e) {
    return e;
  }
  ADD_FAILURE() << "accepted";
  return jetperf::validation_error("", "accepted");
}

}  // namespace

TEST(layers_spec_limits, a_working_set_past_int64_is_refused_not_wrapped) {
  // 2^48 input elements and as many out of the relu: at batch 2^16 in float, 2^67 bytes, which
  // wrapped to exactly 0 and was accepted.
  const json huge = one_relu("huge", {65536, 65536, 65536});
  for (const int batch : {65536, 32768}) {
    const auto e = refusal({{"networks", json::array({huge})}, {"batch", batch}});
    EXPECT_EQ(e.field(), "spec.batch") << batch;
    EXPECT_EQ(e.code(), "too_large") << batch;
    EXPECT_NE(std::string(e.what()).find("needs more than 9223372036854775807 bytes on cpu"), std::string::npos)
        << e.what();
  }
}

TEST(layers_spec_limits, a_duplicate_among_twenty_thousand_user_networks_is_found_and_named) {
  const std::size_t n = 20000;  // what fits a 1 MiB body, and more
  json networks = json::array();
  for (std::size_t i = 0; i < n; ++i) networks.push_back(one_relu("net" + std::to_string(i)));
  json spec = {{"networks", networks}, {"end_to_end", false}};
  // Without the duplicate, all of them are accepted, in order.
  const auto s = normalize_layers_spec(spec, offered());
  ASSERT_EQ(s["models"].size(), n);
  EXPECT_EQ(s["models"][0], "net0");
  EXPECT_EQ(s["models"][n - 1], "net" + std::to_string(n - 1));
  EXPECT_EQ(expand_layers_spec(s).size(), n);

  spec["networks"].push_back(one_relu("net7"));
  const auto e = refusal(spec);
  EXPECT_EQ(e.field(), "spec.networks[" + std::to_string(n) + "].name");
  EXPECT_NE(std::string(e.what()).find("network name 'net7' is already used"), std::string::npos) << e.what();
  // A user network may not take a zoo name either.
  spec["networks"][n] = one_relu("resnet18");
  EXPECT_EQ(refusal(spec).field(), "spec.networks[" + std::to_string(n) + "].name");
}

TEST(layers_spec_limits, a_hundred_thousand_model_names_are_read_once_each) {
  // Each name is kept once, in order; the first that is neither a zoo network nor a user
  // network is the one named.
  json models = json::array();
  for (int i = 0; i < 50000; ++i) models.push_back("resnet18");
  for (int i = 0; i < 50000; ++i) models.push_back("m" + std::to_string(i));
  const auto e = refusal({{"models", models}});
  EXPECT_EQ(e.field(), "spec.models");
  EXPECT_NE(std::string(e.what()).find("unknown model 'm0'"), std::string::npos) << e.what();
  json repeated = json::array();
  for (int i = 0; i < 100000; ++i) repeated.push_back(i % 2 ? "resnet18" : "alexnet");
  EXPECT_EQ(normalize_layers_spec({{"models", repeated}}, offered())["models"], json({"alexnet", "resnet18"}));
}
