// The layers spec: defaults, the points it expands to, and bad input naming its field (and the
// layer of a user network).
#include <jetperf/kinds/layers/layers_spec.hpp>

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
json upgraded(const json& stored, std::int64_t from) {
  return jetperf::to_json(layers_spec::upgrade(jetperf::record_of(stored), from));
}


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
  EXPECT_EQ(s["batch"], json({1}));
  EXPECT_EQ(s["dtype"], json({"float"}));
  EXPECT_TRUE(s["input_size"].is_null());  // each network at its published resolution
  EXPECT_EQ(s["repeats"], 1);
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
}

TEST(layers_spec, user_networks_join_the_zoo_by_name) {
  const auto s = normalize_layers_spec({{"models", "alexnet"}, {"networks", json::array({tiny_net()})}}, offered());
  EXPECT_EQ(s["models"], json({"alexnet", "tiny"}));
  const auto points = expand_layers_spec(s);
  // alexnet 21 blocks + e2e, tiny: stem, gap, (flatten +) fc + e2e.
  ASSERT_EQ(points.size(), 22u + 4u);
  EXPECT_EQ(points[22]["network"], "tiny");
  EXPECT_EQ(points[22]["layer_name"], "stem");
  EXPECT_EQ(network_of_spec(jetperf::record_of(s), "tiny").ops.size(), 5u);
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
  EXPECT_EQ(jetperf::test::stored_of<layers_spec>(s).board_axes.at("allow_reboot"), jetperf::cell(true));
  std::size_t declared = 0;
  for (const auto& f : layers_spec_fields()) declared += f.name == "allow_reboot";
  EXPECT_EQ(declared, 1u);
}

TEST(layers_spec, dtype_batch_and_input_size_are_axes_and_repeats_run_the_whole_job_again) {
  const auto s = normalize_layers_spec({{"models", "resnet18"},
                                        {"dtype", "float,half"},
                                        {"batch", {1, 8}},
                                        {"input_size", {160, 224}},
                                        {"repeats", 2},
                                        {"end_to_end", false}},
                                       offered());
  EXPECT_EQ(s["dtype"], json({"float", "half"}));
  EXPECT_EQ(s["batch"], json({1, 8}));
  EXPECT_EQ(s["input_size"], json({160, 224}));
  EXPECT_EQ(normalize_layers_spec(s, offered()), s) << "a stored spec must normalize to itself (rerun)";
  const auto points = expand_layers_spec(s);
  // resnet18: 14 blocks x 2 dtypes x 2 batches x 2 sizes x 2 repeats.
  ASSERT_EQ(points.size(), 14u * 2 * 2 * 2 * 2);
  // Repeat outermost, then size, batch, dtype; the layers innermost.
  EXPECT_EQ(points[0]["repeat"], 0);
  EXPECT_EQ(points[0]["input_size"], 160);
  EXPECT_EQ(points[0]["batch"], 1);
  EXPECT_EQ(points[0]["dtype"], "float");
  EXPECT_EQ(points[14]["dtype"], "half");
  EXPECT_EQ(points[28]["batch"], 8);
  EXPECT_EQ(points[56]["input_size"], 224);
  EXPECT_EQ(points[112]["repeat"], 1);
  EXPECT_EQ(points[112]["layer_index"], 0);
  // The network really runs at the size: resnet18's stem at 160 pixels gives 80x80.
  EXPECT_EQ(network_of_spec(jetperf::record_of(s), "resnet18", 160).ops[0].output_shape, (jetperf::models::shape{64, 80, 80}));
}

TEST(layers_spec, each_zoo_network_runs_at_its_published_resolution_unless_told_otherwise) {
  const auto s = normalize_layers_spec({{"models", "efficientnet_b1,efficientnet_b2,resnet18"}}, offered());
  const auto points = expand_layers_spec(s);
  for (const auto& p : points) {
    const auto net = p["network"].get<std::string>();
    EXPECT_EQ(p["input_size"], net == "efficientnet_b1" ? 240 : net == "efficientnet_b2" ? 288 : 224) << net;
  }
  EXPECT_EQ(published_input_size(jetperf::record_of(s), "efficientnet_b2"), 288);
  EXPECT_EQ(network_of_spec(jetperf::record_of(s), "efficientnet_b1").input_shape, (jetperf::models::shape{3, 240, 240}));
  // A user network keeps its own input shape: its points have no input size.
  const auto u = normalize_layers_spec({{"networks", json::array({tiny_net()})}, {"input_size", 64}}, offered());
  for (const auto& p : expand_layers_spec(u)) EXPECT_TRUE(p["input_size"].is_null()) << p.dump();
  EXPECT_EQ(network_of_spec(jetperf::record_of(u), "tiny").input_shape, (jetperf::models::shape{3, 16, 16}));
}

TEST(layers_spec, an_input_size_the_network_cannot_take_names_the_network_and_the_op) {
  // alexnet's three stride-2 pools leave nothing of 32 pixels (torchvision needs at least 63).
  const auto f = field_of({{"models", "alexnet"}, {"input_size", 32}});
  EXPECT_EQ(f.substr(0, f.find(" | ")), "spec.input_size") << f;
  EXPECT_NE(f.find("alexnet cannot run at 32x32"), std::string::npos) << f;
  EXPECT_EQ(field_of({{"models", "alexnet"}, {"input_size", 63}}), "accepted");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"input_size", 4}}).substr(0, 16), "spec.input_size ");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"batch", {1, "x"}}}).substr(0, 10), "spec.batch");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"dtype", {"float", "int8"}}}).substr(0, 10), "spec.dtype");
  EXPECT_EQ(field_of({{"models", "resnet18"}, {"repeats", 0}}).substr(0, 12), "spec.repeats");
  // The largest batch of the list is the one checked against memory.
  auto board = offered();
  board.memory_bytes = 64LL << 20;
  EXPECT_EQ(field_of({{"models", "resnet50"}, {"batch", {1, 512}}, {"end_to_end", false}}, board).substr(0, 13),
            "spec.batch | ");
}

TEST(layers_spec, a_spec_stored_before_the_axes_existed_still_reads_and_runs_as_it_did) {
  // One dtype and one batch as scalars, no input_size (every zoo network ran at 224), no repeats.
  auto legacy = normalize_layers_spec({{"models", "efficientnet_b1"}}, offered());
  legacy["dtype"] = "half";
  legacy["batch"] = 4;
  legacy.erase("input_size");
  legacy.erase("repeats");
  // Read only in the current form; a job stored before spec versions goes through the upgrade.
  EXPECT_ANY_THROW(jetperf::test::stored_of<layers_spec>(legacy));
  legacy = upgraded(legacy, 0);
  EXPECT_EQ(upgraded(legacy, 0), legacy) << "the upgrade of a current spec changes nothing";
  const auto stored = jetperf::test::stored_of<layers_spec>(legacy);
  EXPECT_EQ(stored.dtypes, std::vector<std::string>{"half"});
  EXPECT_EQ(stored.batches, std::vector<std::int64_t>{4});
  EXPECT_EQ(stored.input_sizes, std::vector<std::int64_t>{224});
  EXPECT_EQ(stored.repeats, 1);
  const auto points = expand_layers_spec(legacy);
  ASSERT_FALSE(points.empty());
  EXPECT_EQ(points[0]["input_size"], 224);
  EXPECT_EQ(points[0]["batch"], 4);
}

TEST(layers_spec, in_context_runs_one_point_per_network_with_its_own_time_budget) {
  const auto s = normalize_layers_spec({{"models", "resnet50,mobilenet_v2"}, {"protocol", "in_context"}}, offered());
  EXPECT_DOUBLE_EQ(s["max_time_s"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(s["target_half_width"].get<double>(), 0.10);
  EXPECT_EQ(s["warmup_runs"], 1);  // of the whole network
  // Adaptive keeps its own defaults.
  const auto adaptive = normalize_layers_spec({{"models", "resnet50"}}, offered());
  EXPECT_DOUBLE_EQ(adaptive["max_time_s"].get<double>(), 5.0);
  EXPECT_EQ(adaptive["warmup_runs"], 5);
  // Asked for, either is what the spec says.
  const auto asked = normalize_layers_spec(
      {{"models", "resnet50"}, {"protocol", "in_context"}, {"warmup_runs", 7}, {"max_time_s", 30}}, offered());
  EXPECT_EQ(asked["warmup_runs"], 7);
  EXPECT_DOUBLE_EQ(asked["max_time_s"].get<double>(), 30.0);
  EXPECT_DOUBLE_EQ(jetperf::test::stored_of<layers_spec>(s).idle_baseline_s(), 0.25);
  // 30 readings of the sensor, within 0.1-0.25 s: an Orin at 4 samples updates every 4.896 ms.
  EXPECT_NEAR(jetperf::test::stored_of<layers_spec>(s).idle_baseline_s(0.004896), 0.14688, 1e-12);
  EXPECT_DOUBLE_EQ(jetperf::test::stored_of<layers_spec>(s).idle_baseline_s(0.0196), 0.25);
  EXPECT_DOUBLE_EQ(jetperf::test::stored_of<layers_spec>(s).idle_baseline_s(0.001), 0.1);
  // Eight times the unknowns at op granularity, most of them short: a longer budget.
  EXPECT_DOUBLE_EQ(normalize_layers_spec({{"models", "resnet50"}, {"protocol", "in_context"}, {"granularity", "op"}},
                                         offered())["max_time_s"].get<double>(),
                   10.0);
  EXPECT_DOUBLE_EQ(jetperf::test::stored_of<layers_spec>(adaptive).idle_baseline_s(), 0.5);
  EXPECT_DOUBLE_EQ(jetperf::test::stored_of<layers_spec>(adaptive).idle_baseline_s(0.004896), 0.5);
  const auto points = expand_layers_spec(s);
  // Every layer is measured inside the end-to-end runs: one point per network, even at op granularity.
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0]["network"], "resnet50");
  EXPECT_EQ(points[0]["layer_index"], -1);
  EXPECT_EQ(points[1]["network"], "mobilenet_v2");
  const auto ops = normalize_layers_spec(
      {{"models", "resnet50"}, {"protocol", "in_context"}, {"granularity", "op"}, {"end_to_end", false}}, offered());
  EXPECT_EQ(expand_layers_spec(ops).size(), 1u);
  EXPECT_EQ(field_of({{"models", "resnet50"}, {"protocol", "in_context"}, {"target_half_width", 0}}),
            "spec.target_half_width | target_half_width must be between 0.0001 and 1, got 0");
  EXPECT_EQ(field_of({{"models", "resnet50"}, {"protocol", "sideways"}}).substr(0, 16), "spec.protocol | ");
  // A spec stored before the field existed reads the default.
  auto stored = s;
  stored.erase("target_half_width");
  stored = upgraded(stored, 0);
  EXPECT_DOUBLE_EQ(jetperf::test::stored_of<layers_spec>(stored).target_half_width, 0.05);
  EXPECT_TRUE(jetperf::test::stored_of<layers_spec>(stored).in_context());
}
