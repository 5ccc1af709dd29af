// Multi-DNN workloads end to end on a simulated Orin with the CPU backend (oneDNN): the real
// daemon runs two networks at once, one of them cut into two stages, and the client submits
// mappings from a file and from the seed's generator, and writes the seed's processed files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <jetperf/store/cell_json.hpp>
#include <jetperf/config.hpp>
#include <jetperf/kinds/multi_dnn/multi_dnn_spec.hpp>

#include "backbone_helpers.hpp"

using namespace jetperf::test;
using nlohmann::json;

namespace {

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

}  // namespace

#if JETPERF_HAS_ONEDNN
// In MAXN: "--cpu-freq max" is the top clock, where the networks' threads run without a CPU
// quota (under one, the sampler of a 2-core host can fall behind: docs/protocols/concurrent.md).
class multi_dnn_sim : public sim_orin_maxn_suite {};

TEST_F(multi_dnn_sim, two_networks_at_once_with_a_split_give_stage_rows_throughput_and_power) {
  temp_dir work;
  const auto mapping_file = work.path() + "/mapping.json";
  // resnet18 cut after block 5 (conv1..layer1.1 | layer2.0..fc), squeezenet whole: both on the CPU.
  std::ofstream(mapping_file) << R"({"resnet18": {"5": "cpu", "14": "cpu"}, "squeezenet1_0": {"18": "cpu"}})";
  // At the highest CPU clock: below it the simulator holds each workload thread to a CPU quota,
  // and with two networks busy on a 2-core host its sampler then falls behind (the rows say
  // no_power); a board has no such quotas.
  const auto sub = cli({"submit", "multi_dnn", "--mapping", mapping_file, "--threads", "1", "--min-time-s", "1",
                        "--max-time-s", "4", "--target-rse", "0.05", "--cpu-freq", "max", "--watch"},
                       120);
  ASSERT_EQ(sub.exit_code, 0) << sub.out << sub.err << daemon_->log();
  const auto id = submitted_id(sub.out);
  ASSERT_GT(id, 0) << sub.out;

  http_client http(daemon_->port(), std::chrono::seconds(30));
  const auto results = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results"));
  const auto& rows = results["rows"];
  ASSERT_EQ(rows.size(), 3u) << results.dump(1);  // resnet18's two stages, squeezenet's one
  EXPECT_EQ(rows[0]["network"], "resnet18");
  EXPECT_EQ(rows[0]["stage_index"], 0);
  EXPECT_EQ(rows[0]["layer_range"], "0-4");
  EXPECT_EQ(rows[1]["layer_range"], "5-13");
  EXPECT_EQ(rows[2]["network"], "squeezenet1_0");
  for (const auto& row : rows) {
    SCOPED_TRACE(row.dump());
    ASSERT_EQ(row["status"], "ok");
    EXPECT_EQ(row["mapping_class"], "D");
    EXPECT_EQ(row["backend"], "onednn");
    EXPECT_GT(row["inference_count"].get<std::int64_t>(), 0);
    EXPECT_GT(row["inference_mean_s"].get<double>(), 0.0);
    EXPECT_LE(row["inference_median_s"].get<double>(), row["inference_p99_s"].get<double>());
    // Throughput is the count over the window, per network and for the mapping.
    const double window = row["window_s"].get<double>();
    EXPECT_GE(window, 1.0);
    EXPECT_NEAR(row["network_throughput_ips"].get<double>(), row["network_inferences"].get<double>() / window, 1e-9);
    EXPECT_NEAR(row["throughput_ips"].get<double>(), row["inferences"].get<double>() / window, 1e-9);
    // A stage runs once per inference of its network: counts agree within the one inference in flight at an edge.
    EXPECT_NEAR(row["inference_count"].get<double>(), row["network_inferences"].get<double>(), 1.0);
    // Two busy networks draw more than the board at rest.
    EXPECT_GT(row["power_w"].get<double>(), row["idle_power_w"].get<double>() + 0.1);
    EXPECT_NEAR(row["energy_j"].get<double>(), row["power_w"].get<double>() * window / row["inferences"].get<double>(),
                1e-9);
  }
  EXPECT_EQ(rows[0]["inferences"].get<std::int64_t>(),
            rows[0]["network_inferences"].get<std::int64_t>() + rows[2]["network_inferences"].get<std::int64_t>());
  // What crosses the cut is copied, and timed; nothing crosses into a first stage on the CPU.
  EXPECT_TRUE(rows[0]["transfer_mean_s"].is_null());
  EXPECT_GT(rows[1]["transfer_mean_s"].get<double>(), 0.0);
  EXPECT_TRUE(rows[2]["transfer_mean_s"].is_null());
  // Model information per stage adds up to the network's.
  EXPECT_EQ(rows[0]["params"].get<std::int64_t>() + rows[1]["params"].get<std::int64_t>(), 11689512);
  EXPECT_EQ(rows[2]["params"], 1248424);
  // The tegrastats aggregates, from the daemon's sampler: one entry per simulated core.
  const auto& teg = rows[0]["tegrastats"];
  ASSERT_TRUE(teg.contains("CPU")) << teg.dump();
  EXPECT_GE(teg["CPU"]["Utilization"]["avg"].size(), 4u);
  EXPECT_EQ(teg["CPU"]["Utilization"]["avg"].size(), teg["CPU"]["Frequencies"]["avg"].size());
  EXPECT_GT(teg["CPU"]["Frequencies"]["max"][0].get<double>(), 100.0);  // MHz
  EXPECT_TRUE(teg.contains("GR3D_FREQ"));
  EXPECT_GT(teg.value("RAM", 0.0), 0.0);
  EXPECT_EQ(results["summary"]["measured"], 1);

  // The seed's processed files, one per mapping.
  const auto dir = work.path() + "/multinet/";
  const auto out = cli({"results", std::to_string(id), "--format", "multinet", "-o", dir});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const auto doc = read_json(dir + "mapping-0.json");
  for (const char* key : {"mapping", "stageSummary", "samplingDuration", "Mode", "Device", "Tegrastats", "ModelInfo"})
    EXPECT_TRUE(doc.contains(key)) << key << " in " << doc.dump();
  EXPECT_EQ(doc["mapping"], json::parse(R"({"resnet18": {"5": "cpu", "14": "cpu"}, "squeezenet1_0": {"18": "cpu"}})"));
  EXPECT_EQ(doc["Device"], "Orin");
  // The seed's own Tegrastats names for the zones it knew (tj@ as "Tjunction Temperature"), the
  // board's for the rest (AGX Orin's rails were never in the seed's Orin list).
  EXPECT_TRUE(doc["Tegrastats"].contains("Tjunction Temperature")) << doc["Tegrastats"].dump();
  EXPECT_TRUE(doc["Tegrastats"].contains("SOC 2 Temperature")) << doc["Tegrastats"].dump();
  EXPECT_FALSE(doc["Tegrastats"].contains("tj Temperature")) << doc["Tegrastats"].dump();
  // The engines the board has, read from debugfs where tegrastats reads them (the simulated AGX
  // Orin on r36 prints VIC_FREQ 729 and APE 174, and no other engine).
  EXPECT_EQ(doc["Tegrastats"]["VIC"], 729.0) << doc["Tegrastats"].dump();
  EXPECT_EQ(doc["Tegrastats"]["APE"], 174.0) << doc["Tegrastats"].dump();
  EXPECT_FALSE(doc["Tegrastats"].contains("NVDEC")) << doc["Tegrastats"].dump();
  EXPECT_TRUE(doc["Mode"].is_number_integer()) << doc["Mode"];
  const auto& r18 = doc["stageSummary"]["resnet18"];
  EXPECT_EQ(r18["cpu"]["infCount"], rows[0]["inference_count"]);
  EXPECT_DOUBLE_EQ(r18["cpu"]["avgInfTime"].get<double>(), rows[0]["inference_mean_s"].get<double>());
  EXPECT_EQ(r18["cpu"]["avgTransferTime"], -1);  // none, as the seed writes it
  EXPECT_GT(r18["cpu:1"]["avgTransferTime"].get<double>(), 0.0);
  EXPECT_EQ(doc["ModelInfo"]["squeezenet1_0"]["cpu"]["params"], "1.25 M");
  EXPECT_EQ(doc["ModelInfo"]["squeezenet1_0"]["cpu"]["functionalLayerCount"], rows[2]["functional_layer_count"]);
  EXPECT_TRUE(std::filesystem::exists(dir + "provenance.json"));
}

TEST_F(multi_dnn_sim, the_generator_runs_the_seeds_mappings_and_bad_ones_are_refused) {
  // The dry run lists the mappings it will run, each once.
  const auto dry = cli({"submit", "multinet", "--networks", "squeezenet1_0,shufflenet_v2_x0_5,mobilenet_v3_small",
                        "--num-networks", "2", "--samples", "2", "--device-priorities", "cpu=1", "--seed", "5",
                        "--cpu-freq", "max", "--dry-run"});
  ASSERT_EQ(dry.exit_code, 0) << dry.out << dry.err;
  EXPECT_NE(dry.out.find("\nmapping 0 ("), std::string::npos) << dry.out;
  EXPECT_NE(dry.out.find("\nmapping 1 ("), std::string::npos) << dry.out;
  EXPECT_EQ(dry.out.find("\nmapping 2 "), std::string::npos) << dry.out;
  const auto sub = cli({"submit", "multinet", "--networks", "squeezenet1_0,shufflenet_v2_x0_5,mobilenet_v3_small",
                        "--num-networks", "2", "--samples", "2", "--device-priorities", "cpu=1", "--seed", "5",
                        "--min-time-s", "0.5", "--max-time-s", "2", "--target-rse", "0.1", "--cpu-freq", "max", "--watch"},
                       120);
  ASSERT_EQ(sub.exit_code, 0) << sub.out << sub.err;
  http_client http(daemon_->port(), std::chrono::seconds(30));
  const auto results = json_of(http.request("GET", "/v1/jobs/" + std::to_string(submitted_id(sub.out)) + "/results"));
  // The mappings the generator gives for seed 5, here as in the daemon: the same on any board.
  jetperf::kinds::generator_options o;
  o.networks = {"squeezenet1_0", "shufflenet_v2_x0_5", "mobilenet_v3_small"};
  o.min_networks = o.max_networks = 2;
  o.samples = 2;
  o.device_priorities = {{"cpu", 1.0}};
  o.seed = 5;
  const auto expected = jetperf::kinds::generate_mappings(o, jetperf::kinds::multi_dnn_rules({}));
  ASSERT_EQ(expected.size(), 2u);
  std::set<std::int64_t> seen;
  for (const auto& row : results["rows"]) {
    SCOPED_TRACE(row.dump());
    ASSERT_EQ(row["status"], "ok");
    const auto id = row["mapping_id"].get<std::int64_t>();
    seen.insert(id);
    EXPECT_EQ(row["mapping"], jetperf::to_json(jetperf::kinds::mapping_record(expected.at(static_cast<std::size_t>(id)).m)));
    EXPECT_EQ(row["mapping_class"], expected.at(static_cast<std::size_t>(id)).mapping_class);
    EXPECT_EQ(row["device"], "cpu");
    EXPECT_GT(row["inference_count"].get<std::int64_t>(), 0);
  }
  EXPECT_EQ(seen, (std::set<std::int64_t>{0, 1}));

  // A bad mapping: a 400 naming the network and index, and the client's non-zero exit.
  const auto bad = http.request("POST", "/v1/jobs",
                                json{{"kind", "multi_dnn"}, {"spec", {{"mappings", {{{"resnet18", {{"15", "cpu"}}}}}}}}}.dump(),
                                bearer(daemon_->token()));
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(json_of(bad)["error"]["field"], "spec.mappings[0].resnet18.15") << bad.body;
  const auto refused = cli({"submit", "multi_dnn", "--samples", "2", "--num-networks", "9:3"});
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("spec.num_networks"), std::string::npos) << refused.err;
}
#endif
