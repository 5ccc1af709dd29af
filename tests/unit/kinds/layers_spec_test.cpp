// The layers spec: defaults, the points it expands to, and bad input naming its field (and the
// layer of a user network).
#include <jetperf/kinds/layers/layers_spec.hpp>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>

using nlohmann::json;
using namespace jetperf::kinds;

namespace {

jetperf::platform::board_offer offered() {
  jetperf::platform::board_offer o;
  o.power_modes = {{0, "MAXN", {}}, {1, "15W", {}}};
  o.gpu_freqs_hz = {300000000, 900000000};
  o.cpu_freqs_khz = {1200000, 2200000};
  o.has_cuda_device = false;
  o.memory_bytes = 8LL << 30;
  return o;
}

json tiny_net() {
  return json::parse(R"({"name": "tiny", "input": [3, 16, 16], "layers": [
      {"name": "conv", "type": "conv2d", "out_channels": 8, "kernel": 3, "padding": 1, "block": "stem"},
      {"name": "relu", "type": "relu", "block": "stem"},
      {"name": "gap", "type": "adaptive_avg_pool", "output_size": 1},
      {"name": "flatten", "type": "flatten"},
      {"name": "fc", "type": "linear", "out_features": 4}]})");
}

std::string field_of(const json& spec, const jetperf::platform::board_offer& board = offered()) {
  try {
    normalize_layers_spec(spec, board);
  } catch (const jetperf::validation_error& e) {
    return e.field() + " | " + e.what();
  }
  return "accepted";
}

}  // namespace

TEST(layers_spec, defaults_follow_the_seed_and_the_board) {
  const auto s = normalize_layers_spec({{"models", "resnet18"}}, offered());
  EXPECT_EQ(s["models"], json({"resnet18"}));
  EXPECT_EQ(s["devices"], json({"cpu"}));  // the board has no CUDA device
  EXPECT_EQ(s["granularity"], "block");
  EXPECT_EQ(s["batch"], 1);
  EXPECT_EQ(s["dtype"], "float");
  EXPECT_EQ(s["latency_samples"], 100);
  EXPECT_EQ(s["protocol"], "adaptive");
  // Latency is a count unless the spec names a latency RSE target too.
  EXPECT_TRUE(s["latency_target_rse"].is_null());
  EXPECT_DOUBLE_EQ(normalize_layers_spec({{"models", "resnet18"}, {"latency_target_rse", 0.02}}, offered())
                       ["latency_target_rse"].get<double>(),
                   0.02);
  const auto f = normalize_layers_spec({{"models", "resnet18"}, {"protocol", "fixed"}}, offered());
  EXPECT_DOUBLE_EQ(f["window_s"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(f["boundary_s"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(f["gap_s"].get<double>(), 2.0);
}

TEST(layers_spec, expands_layers_then_end_to_end_per_network_device_and_setting) {
  const auto s = normalize_layers_spec(
      {{"models", "resnet50,mobilenet_v2"}, {"devices", "cpu,cuda"}, {"power_modes", {0, 1}}}, offered());
  const auto points = expand_layers_spec(s);
  // resnet50 has 22 blocks, mobilenet_v2 21; +1 end-to-end each; x 2 devices x 2 modes.
  ASSERT_EQ(points.size(), static_cast<std::size_t>((23 + 22) * 2 * 2));
  EXPECT_EQ(points[0]["power_mode"], 0);
  EXPECT_EQ(points[0]["network"], "resnet50");
  EXPECT_EQ(points[0]["device"], "cpu");
  EXPECT_EQ(points[0]["layer_index"], 0);
  EXPECT_EQ(points[0]["layer_name"], "conv1");
  EXPECT_EQ(points[21]["layer_name"], "fc");
  EXPECT_EQ(points[22]["layer_index"], -1);
  EXPECT_EQ(points[22]["layer_type"], "network");
  EXPECT_EQ(points[23]["device"], "cuda");
  EXPECT_EQ(points.back()["power_mode"], 1);
  EXPECT_EQ(points.back()["network"], "mobilenet_v2");
  const auto ops = expand_layers_spec(normalize_layers_spec({{"models", "resnet50"}, {"granularity", "op"}}, offered()));
  EXPECT_GT(ops.size(), 150u);
  EXPECT_GT(estimate_layers_s(s, points.size()), 0);
}

TEST(layers_spec, user_networks_join_the_zoo_by_name) {
  const auto s = normalize_layers_spec({{"models", "alexnet"}, {"networks", json::array({tiny_net()})}}, offered());
  EXPECT_EQ(s["models"], json({"alexnet", "tiny"}));
  const auto points = expand_layers_spec(s);
  // alexnet 21 blocks + e2e, tiny: stem, gap, (flatten +) fc + e2e.
  ASSERT_EQ(points.size(), 22u + 4u);
  EXPECT_EQ(points[22]["network"], "tiny");
  EXPECT_EQ(points[22]["layer_name"], "stem");
  EXPECT_EQ(network_of_spec(s, "tiny").ops.size(), 5u);
  // The stored spec is itself a valid spec: submitted again (jetperf rerun), it normalizes to itself.
  EXPECT_EQ(normalize_layers_spec(s, offered()), s);
}

TEST(layers_spec, bad_input_names_the_field) {
  EXPECT_EQ(field_of({{"models", "resnet5"}}).substr(0, 14), "spec.models | ");
  EXPECT_NE(field_of({{"models", "resnet5"}}).find("unknown model 'resnet5'"), std::string::npos);
  EXPECT_EQ(field_of(json::object()).substr(0, 11), "spec.models");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"devices", "tpu"}}).substr(0, 12), "spec.devices");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"granularity", "layer"}}).substr(0, 16), "spec.granularity");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"dtype", "double"}}).substr(0, 10), "spec.dtype");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"batch", 0}}).substr(0, 10), "spec.batch");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"protocol", "slow"}}).substr(0, 13), "spec.protocol");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"latency_samples", 0}}).substr(0, 20), "spec.latency_samples");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"latency_target_rse", 2}}).substr(0, 23), "spec.latency_target_rse");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"gpu_freqs", {12345}}}).substr(0, 14), "spec.gpu_freqs");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"end_to_end", "yes"}}).substr(0, 15), "spec.end_to_end");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"colour", 1}}).substr(0, 11), "spec.colour");
  json clash = {{"name", "resnet18"}, {"input", {3, 8, 8}}, {"layers", json::array({{{"name", "r"}, {"type", "relu"}}})}};
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"networks", json::array({clash})}}),
            "spec.networks[0].name | network name 'resnet18' is already used (by the zoo or another network)");
}

TEST(layers_spec, a_bad_user_layer_is_named) {
  auto net = tiny_net();
  net["layers"][1]["type"] = "gelu";
  const auto f = field_of({{"networks", json::array({net})}});
  EXPECT_EQ(f.substr(0, f.find(" | ")), "spec.networks[0].layers[1]");
  EXPECT_NE(f.find("relu"), std::string::npos) << f;  // names the layer
  net = tiny_net();
  net["layers"][4]["output_shape"] = {5};
  const auto g = field_of({{"networks", json::array({net})}});
  EXPECT_EQ(g.substr(0, g.find(" | ")), "spec.networks[0].layers[4]");
  EXPECT_NE(g.find("fc"), std::string::npos) << g;
}

TEST(layers_spec, a_batch_beyond_memory_is_refused) {
  auto board = offered();
  board.memory_bytes = 64LL << 20;  // 64 MiB: every block of resnet50 at batch 1 fits...
  EXPECT_EQ(field_of({{"models", "resnet50"}, {"batch", 1}, {"end_to_end", false}}, board), "accepted");
  // ...the whole network end to end (every op's output and 25.6 M float weights) does not.
  const auto e2e = field_of({{"models", "resnet50"}, {"batch", 1}}, board);
  EXPECT_NE(e2e.find("layer 'resnet50'"), std::string::npos) << e2e;
  const auto f = field_of({{"models", "resnet50"}, {"batch", 512}}, board);
  EXPECT_EQ(f.substr(0, 13), "spec.batch | ") << f;
  EXPECT_NE(f.find("does not fit"), std::string::npos) << f;
}

TEST(layers_spec, declares_and_checks_allow_reboot_like_every_sweeping_kind) {
  auto off = offered();
  off.power_modes[1].reboot_from = {0};
  off.power_mode = 0;
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"power_modes", {0, 1}}}, off).rfind("spec.allow_reboot |", 0), 0u);
  const auto s = normalize_layers_spec({{"models", "resnet18"}, {"power_modes", {0, 1}}, {"allow_reboot", true}}, off);
  EXPECT_EQ(s["allow_reboot"], true);
  EXPECT_EQ(layers_spec::stored(s).board_axes["allow_reboot"], true);
  std::size_t declared = 0;
  for (const auto& f : layers_spec_fields()) declared += f.name == "allow_reboot";
  EXPECT_EQ(declared, 1u);
}
