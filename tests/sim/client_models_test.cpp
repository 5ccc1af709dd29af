// `jetperf models`, `models show` and `submit layers` against the real jetperfd on the simulated
// AGX Orin: the zoo table, a layer table, unknown networks named in the error, and the layers
// flags landing in the daemon's normalized spec (dry runs: nothing is measured here).
#include <fstream>
#include <regex>
#include <sstream>

#include <support/temp_dir.hpp>

#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

using client_models = sim_orin_suite;

// Lines of a table whose first cell is a row index ("  3  features.3  ...").
int indexed_lines(const std::string& text) {
  int n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, std::regex(R"(^\s*[0-9]+\s+\S)"))) ++n;
  return n;
}

const char* const k_tiny_network = R"({
  "name": "tiny_net",
  "input": [3, 32, 32],
  "layers": [
    {"name": "conv1", "type": "conv2d", "out_channels": 8, "kernel": 3, "padding": 1},
    {"name": "relu", "type": "relu"},
    {"name": "gap", "type": "adaptive_avg_pool", "output_size": 1},
    {"name": "flatten", "type": "flatten"},
    {"name": "fc", "type": "linear", "out_features": 10}
  ]})";

TEST_F(client_models, models_lists_the_zoo) {
  const auto r = cli({"models"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(^NAME\s+PARAMS\s+GMACS\s+BLOCKS\s+OPS\s+FUNCTIONAL_LAYERS\s+PUBLISHED_PARAMS\s+PUBLISHED_GMACS\n)")))
      << r.out;
  // resnet50: 25557032 params, 22 blocks, 127 functional layers, torchvision's 4.089 GMACs.
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex(R"(\nresnet50\s+25557032\s+4\.[0-9]+\s+22\s+[0-9]+\s+127\s+25557032\s+4\.089\n)")))
      << r.out;
  EXPECT_NE(r.out.find("\n23 networks"), std::string::npos) << r.out;
  // Header, 23 rows, the count.
  EXPECT_EQ(line_count(r.out), 25) << r.out;

  const auto j = cli({"--json", "models"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto list = nlohmann::json::parse(j.out, nullptr, false);
  ASSERT_TRUE(list.is_object()) << j.out;
  EXPECT_EQ(list["models"].size(), 23u);
}

TEST_F(client_models, models_show_prints_the_layer_table) {
  auto r = cli({"models", "show", "mobilenet_v2", "--granularity", "block"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(^INDEX\s+NAME\s+TYPE\s+INPUT_SHAPES\s+OUTPUT_SHAPE\s+PARAMS\s+MACS\n)")))
      << r.out;
  EXPECT_EQ(indexed_lines(r.out), 21) << r.out;
  // Every block ends in its module's own output; forward()'s functional pooling and flatten open
  // the block after them, as the seed runs them (network_builder.hpp).
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex(R"(\n\s*18\s+features\.18\s+Conv2dNormActivation\s+\[1, 320, 7, 7\]\s+\[1, 1280, 7, 7\]\s+412160\s)")))
      << r.out;
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex(R"(\n\s*19\s+classifier\.0\s+Dropout\s+\[1, 1280, 7, 7\]\s+\[1, 1280\]\s+0\s)")))
      << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\nmobilenet_v2: 21 layers \(block, batch 1\), 3504872 params, )")))
      << r.out;

  // The batch goes in front of every shape; op granularity has more layers.
  r = cli({"models", "show", "mobilenet_v2", "--batch", "8", "--granularity", "op"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(indexed_lines(r.out), 21) << r.out;
  EXPECT_NE(r.out.find("[8, 1280, 7, 7]"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("[1, 1280, 7, 7]"), std::string::npos) << r.out;

  r = cli({"--json", "models", "show", "resnet50"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["layers"].size(), 22u);
}

TEST_F(client_models, unknown_model_and_bad_values_fail_with_a_message) {
  auto r = cli({"models", "show", "nosuchnet"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("nosuchnet"), std::string::npos) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  // Values the CLI itself knows are wrong are usage errors.
  r = cli({"models", "show", "resnet50", "--granularity", "layer"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = cli({"models", "show", "resnet50", "--batch", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

TEST_F(client_models, submit_layers_unknown_model_names_spec_models) {
  const auto r = cli({"submit", "layers", "--model", "nosuchnet", "--device", "cpu"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("(field: spec.models)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nosuchnet"), std::string::npos) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
}

TEST_F(client_models, submit_layers_flags_become_the_normalized_spec) {
  temp_dir dir;
  const std::string net_file = dir.path() + "/tiny.json";
  std::ofstream(net_file) << k_tiny_network;
  const auto r = cli({"--json", "submit", "layers", "--model", "resnet18, mobilenet_v2", "--network", net_file,
                      "--device", "cpu", "--granularity", "op", "--batch", "2,4", "--dtype", "float,half",
                      "--input-size", "160", "--repeats", "2",
                      "--latency-samples", "7", "--warmup-runs", "3", "--protocol", "fixed", "--window-s", "0.5",
                      "--boundary-s", "0.1", "--gap-s", "0.2", "--target-rse", "0.05", "--min-time-s", "0.01",
                      "--max-time-s", "0.5", "--no-end-to-end", "--threads", "1", "--cooldown-s", "0",
                      "--cpu-freq", "min,max", "--sensor-samples", "64", "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  const auto& spec = j["spec"];
  EXPECT_EQ(spec["models"], nlohmann::json({"resnet18", "mobilenet_v2", "tiny_net"})) << spec.dump();
  ASSERT_EQ(spec["networks"].size(), 1u) << spec.dump();
  EXPECT_EQ(spec["networks"][0]["name"], "tiny_net");
  EXPECT_EQ(spec["devices"], nlohmann::json({"cpu"}));
  EXPECT_EQ(spec["granularity"], "op");
  EXPECT_EQ(spec["batch"], nlohmann::json({2, 4}));
  EXPECT_EQ(spec["dtype"], nlohmann::json({"float", "half"}));
  EXPECT_EQ(spec["input_size"], nlohmann::json({160}));
  EXPECT_EQ(spec["repeats"], 2);
  EXPECT_EQ(spec["latency_samples"], 7);
  EXPECT_EQ(spec["warmup_runs"], 3);
  EXPECT_EQ(spec["protocol"], "fixed");
  EXPECT_DOUBLE_EQ(spec["window_s"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(spec["boundary_s"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(spec["gap_s"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(spec["target_rse"].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ(spec["min_time_s"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(spec["max_time_s"].get<double>(), 0.5);
  EXPECT_EQ(spec["sensor_samples"], 64) << spec.dump();
  EXPECT_EQ(spec["end_to_end"], false);
  EXPECT_EQ(spec["threads"], 1);
  ASSERT_TRUE(spec["cpu_freqs"].is_array()) << spec.dump();
  EXPECT_EQ(spec["cpu_freqs"].size(), 2u) << spec.dump();

  // Points: every op of the three networks (no end-to-end points), under two CPU clocks, in two
  // dtypes, at two batches and twice (the size changes no op count).
  std::int64_t ops = 0;
  for (const char* name : {"resnet18", "mobilenet_v2"}) {
    const auto m = cli({"--json", "models", "show", name, "--granularity", "op"});
    ASSERT_EQ(m.exit_code, 0) << m.err;
    ops += static_cast<std::int64_t>(nlohmann::json::parse(m.out)["layers"].size());
  }
  EXPECT_EQ(j["points"], (ops + 5) * 2 * 2 * 2 * 2) << j.dump();
}

TEST_F(client_models, tiny_user_network_runs_and_exports_dnnstats) {
  temp_dir dir;
  const std::string net_file = dir.path() + "/tiny.json";
  std::ofstream(net_file) << k_tiny_network;
  auto r = cli({"submit", "layers", "--network", net_file, "--device", "cpu", "--latency-samples", "5",
                "--warmup-runs", "1", "--min-time-s", "0.01", "--max-time-s", "0.05", "--target-rse", "0.5",
                "--threads", "1", "--watch"},
               120);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("submitted job ([0-9]+) \\(layers, 5 points"))) << r.out;
  const std::string id = m[1];

  // The seed's processed layout: network -> device -> parameter -> layer index.
  r = cli({"results", id, "--format", "dnnstats"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  ASSERT_TRUE(j.contains("tiny_net")) << r.out;
  const auto latency = j["tiny_net"]["cpu"]["latency"];
  ASSERT_TRUE(latency.is_object()) << r.out;
  EXPECT_EQ(latency.size(), 4u) << r.out;
  for (const auto& kv : latency.items()) EXPECT_GT(kv.value().get<double>(), 0.0) << kv.key();
}

TEST_F(client_models, bad_network_files_are_usage_errors_naming_the_file) {
  temp_dir dir;
  const std::string bad = dir.path() + "/bad.json";
  std::ofstream(bad) << "{\"name\": ";
  auto r = cli({"submit", "layers", "--network", bad, "--dry-run"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r.err;
  const std::string missing = dir.path() + "/missing.json";
  r = cli({"submit", "layers", "--network", missing, "--dry-run"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
  // Readable JSON with a bad layer: the daemon names the layer's field.
  const std::string wrong = dir.path() + "/wrong.json";
  std::ofstream(wrong) << R"({"name": "w", "input": [3, 8, 8], "layers": [{"name": "x", "type": "warp"}]})";
  r = cli({"submit", "layers", "--network", wrong, "--device", "cpu", "--dry-run"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("(field: spec.networks[0].layers[0]"), std::string::npos) << r.err;
  // Values the CLI itself knows are wrong.
  r = cli({"submit", "layers", "--model", "resnet18", "--granularity", "layer"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // A list the daemon parses: its message names the field.
  r = cli({"submit", "layers", "--model", "resnet18", "--batch", "two", "--dry-run"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("(field: spec.batch)"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace jetperf::test
