// Layer-wise DNN profiling end to end on a simulated Orin with the CPU backend (oneDNN): the real
// daemon, resnet18 at block granularity, one row per block with latency and power, the
// end-to-end row and summary, and the seed's processed layout (dnnstats). Bad input gets a 400
// naming the field or the layer.
#include <gtest/gtest.h>

#include <iterator>

#include <set>

#include <jetperf/config.hpp>

#include "backbone_helpers.hpp"

using namespace jetperf::test;
using nlohmann::json;

namespace {

const std::vector<std::string> k_resnet18_blocks = {"conv1",    "bn1",      "relu",     "maxpool", "layer1.0",
                                                    "layer1.1", "layer2.0", "layer2.1", "layer3.0", "layer3.1",
                                                    "layer4.0", "layer4.1", "avgpool",  "fc"};

}  // namespace

// The CPU layer backend is oneDNN; a build without it answers every CPU layer point "not
// supported by this build" (unit test onednn_layers.factory_and_name).
#if JETPERF_HAS_ONEDNN
TEST(layers_sim, resnet18_blocks_on_a_simulated_orin_cpu) {
  temp_dir sim;
  daemon_process daemon({"--board", "sim:orin-agx", "--sim-dir", sim.path()});
  http_client http(daemon.port(), std::chrono::seconds(30));

  const json spec = {{"models", "resnet18"}, {"devices", "cpu"},      {"granularity", "block"},
                     {"latency_samples", 10}, {"warmup_runs", 2},     {"min_time_s", 0.1},
                     {"max_time_s", 2.0},     {"target_rse", 0.05},   {"boundary_s", 0.02},
                     {"threads", 1}};
  const auto submitted =
      http.request("POST", "/v1/jobs", json{{"kind", "layers"}, {"spec", spec}}.dump(), bearer(daemon.token()));
  ASSERT_EQ(submitted.status, 201) << submitted.body;
  const auto job = json_of(submitted);
  ASSERT_EQ(job["progress"]["total"], 15);  // 14 blocks + end to end
  const auto id = std::to_string(job["id"].get<std::int64_t>());
  ASSERT_EQ(wait_state(http, job["id"].get<std::int64_t>(), {"succeeded", "failed", "cancelled"},
                       std::chrono::seconds(240)),
            "succeeded")
      << daemon.log();

  const auto results = json_of(http.request("GET", "/v1/jobs/" + id + "/results"));
  const auto& rows = results["rows"];
  ASSERT_EQ(rows.size(), 15u) << results.dump(1);
  double sum = 0;
  for (std::size_t i = 0; i < k_resnet18_blocks.size(); ++i) {
    const auto& row = rows[i];
    ASSERT_EQ(row["status"], "ok") << row.dump();
    EXPECT_EQ(row["layer_index"], static_cast<int>(i));
    EXPECT_EQ(row["layer_name"], k_resnet18_blocks[i]);
    EXPECT_EQ(row["backend"], "onednn");
    EXPECT_GE(row["latency_count"].get<int>(), 10);
    EXPECT_GT(row["latency_mean_s"].get<double>(), 0.0);
    EXPECT_GT(row["power_w"].get<double>(), 1.0) << row.dump();
    EXPECT_GT(row["power_samples"].get<int>(), 0);
    EXPECT_NEAR(row["energy_j"].get<double>(), row["power_w"].get<double>() * row["latency_mean_s"].get<double>(),
                1e-9);
    bool has_rail = false;
    for (auto it = row.begin(); it != row.end(); ++it)
      has_rail = has_rail || (it.key().rfind("rail_", 0) == 0 && it->is_number());
    EXPECT_TRUE(has_rail) << row.dump();
    sum += row["latency_mean_s"].get<double>();
  }
  EXPECT_EQ(rows[4]["input_shapes"], "[1, 64, 56, 56]");
  EXPECT_EQ(rows[4]["output_shape"], "[1, 64, 56, 56]");
  EXPECT_DOUBLE_EQ(rows[4]["sensor_update_period_s"].get<double>(), 0.02);  // the simulated INA3221s' update_interval
  EXPECT_EQ(rows[13]["macs"], 512 * 1000);
  const auto& e2e = rows[14];
  EXPECT_EQ(e2e["layer_index"], -1);
  EXPECT_EQ(e2e["params"], 11689512);
  EXPECT_NEAR(e2e["layer_latency_sum_s"].get<double>(), sum, 1e-12);

  const auto& net = results["summary"]["networks"][0];
  EXPECT_EQ(net["network"], "resnet18");
  EXPECT_EQ(net["layers_measured"], 14);
  EXPECT_GT(net["layers_over_end_to_end"].get<double>(), 0.3);
  EXPECT_LT(net["layers_over_end_to_end"].get<double>(), 3.0);

  // The seed's processed layout: network -> device -> power -> layer index -> rail -> mW.
  const auto d = json_of(http.request("GET", "/v1/jobs/" + id + "/results?format=dnnstats"));
  ASSERT_TRUE(d.contains("resnet18")) << d.dump();
  const auto& cpu = d["resnet18"]["cpu"];
  ASSERT_EQ(cpu["power"].size(), 14u);
  ASSERT_EQ(cpu["latency"].size(), 14u);
  for (const auto& [index, rails] : cpu["power"].items()) {
    ASSERT_TRUE(rails.is_object());
    ASSERT_FALSE(rails.empty());
    for (const auto& [rail, mw] : rails.items()) {
      EXPECT_EQ(rail.find("rail"), std::string::npos) << rail;
      EXPECT_TRUE(mw.is_number());
    }
    const auto& row = rows[static_cast<std::size_t>(std::stoi(index))];
    EXPECT_DOUBLE_EQ(cpu["latency"][index].get<double>(), row["latency_mean_s"].get<double>());
  }

  // Layer keys in numeric order ("2" before "10"), as the seed's analysis code iterates them.
  const auto ordered =
      nlohmann::ordered_json::parse(http.request("GET", "/v1/jobs/" + id + "/results?format=dnnstats").body);
  std::vector<std::string> keys, expected_keys;
  for (const auto& item : ordered["resnet18"]["cpu"]["latency"].items()) keys.push_back(item.key());
  for (int i = 0; i < 14; ++i) expected_keys.push_back(std::to_string(i));
  EXPECT_EQ(keys, expected_keys);
  // The seed's loops take every top-level key for a network, every second-level one for a
  // device with its power and latency: provenance is not among them (it travels beside the file).
  for (const auto& [network, devices] : ordered.items()) {
    ASSERT_TRUE(devices.is_object()) << network;
    for (const auto& [device, figures] : devices.items()) {
      EXPECT_TRUE(figures.contains("power") && figures.contains("latency")) << network << " " << device;
    }
  }
  EXPECT_FALSE(ordered.contains("provenance"));

  // The client keeps the daemon's order, and writes the provenance beside the file.
  temp_dir out;
  const auto written = run_client(with_daemon(daemon, {"results", id, "--format", "dnnstats", "-o", out.file("mode.json")}));
  ASSERT_EQ(written.exit_code, 0) << written.err;
  const auto file = nlohmann::ordered_json::parse(read_file(out.file("mode.json")));
  std::vector<std::string> file_keys;
  for (const auto& item : file["resnet18"]["cpu"]["power"].items()) file_keys.push_back(item.key());
  EXPECT_EQ(file_keys, expected_keys);
  EXPECT_EQ(json::parse(read_file(out.file("mode.json.provenance.json"))), results["provenance"]);

  // CSV: one line per row plus the header, whose columns are the JSON's, in the JSON's order.
  const auto csv = http.request("GET", "/v1/jobs/" + id + "/results?format=csv");
  EXPECT_EQ(csv.status, 200);
  EXPECT_EQ(line_count(csv.body), 16);
  std::string header;
  for (const auto& c : results["columns"]) header += (header.empty() ? "" : ",") + c["name"].get<std::string>();
  EXPECT_EQ(csv.body.substr(0, csv.body.find("\r\n")), header);
  EXPECT_NE(header.find(",rail_"), std::string::npos) << header;
  EXPECT_EQ(http.request("GET", "/v1/jobs/" + id + "/results?format=xml").status, 400);
}

TEST(layers_sim, bad_layer_specs_get_a_400_naming_the_field) {
  temp_dir sim;
  daemon_process daemon({"--board", "sim:orin-agx", "--sim-dir", sim.path()});
  http_client http(daemon.port(), std::chrono::seconds(30));
  const auto submit = [&](const json& spec) {
    const auto r = http.request("POST", "/v1/jobs", json{{"kind", "layers"}, {"spec", spec}}.dump(),
                                bearer(daemon.token()));
    EXPECT_EQ(r.status, 400) << r.body;
    return json_of(r)["error"];
  };
  EXPECT_EQ(submit({{"models", "resnet51"}})["field"], "spec.models");
  const json bad_net = {{"name", "mine"},
                        {"input", {3, 32, 32}},
                        {"layers", json::array({{{"name", "c1"}, {"type", "conv2d"}, {"out_channels", 8}, {"kernel", 3}},
                                                {{"name", "weird"}, {"type", "gelu"}}})}};
  const auto e = submit({{"networks", json::array({bad_net})}});
  EXPECT_EQ(e["field"], "spec.networks[0].layers[1]");
  EXPECT_NE(e["message"].get<std::string>().find("weird"), std::string::npos) << e.dump();
  json mismatched = bad_net;
  mismatched["layers"][1] = {{"name", "sum"}, {"type", "add"}, {"inputs", {"c1", "input"}}};
  const auto m = submit({{"networks", json::array({mismatched})}});
  EXPECT_EQ(m["field"], "spec.networks[0].layers[1]");
  EXPECT_NE(m["message"].get<std::string>().find("sum"), std::string::npos) << m.dump();
  EXPECT_EQ(submit({{"models", "resnet50"}, {"devices", "cpu"}, {"batch", 60000}})["field"], "spec.batch");
  // Nothing was queued by the refused submissions.
  EXPECT_EQ(json_of(http.request("GET", "/v1/jobs"))["jobs"].size(), 0u);
}

#endif  // JETPERF_HAS_ONEDNN
