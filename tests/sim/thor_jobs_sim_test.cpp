// Issue 38's done-when on the simulated AGX Thor: the quick start's GEMM sweep
// (deploy/quickstart.sh) and a short layers job run end to end through the real daemon, both
// succeed, and their power is the carrier INA238's VIN, the board's total, not a sum of the
// module's INA3221 rails (which VIN already includes).
#include <gtest/gtest.h>

#include <string>

#include "backbone_helpers.hpp"

using namespace jetperf::test;
using nlohmann::json;

namespace {

// The job's provenance names VIN (INA238, power1_input) as the total's channel.
void expect_vin_total(const json& provenance) {
  bool vin = false;
  for (const auto& c : provenance["power_sensor"]["channels"]) {
    if (c.value("name", "") != "rail.VIN") continue;
    vin = true;
    EXPECT_EQ(c.value("role", ""), "total") << c.dump();
    EXPECT_EQ(c.value("driver", ""), "ina238 (hwmon)") << c.dump();
    EXPECT_NE(c.value("source", "").find("/power1_input"), std::string::npos) << c.dump();
  }
  EXPECT_TRUE(vin) << provenance.dump(1);
}

// A row's power is VIN's mean, above the module rails VIN feeds.
void expect_power_from_vin(const json& row) {
  ASSERT_EQ(row["status"], "ok") << row.dump();
  ASSERT_TRUE(row["rail_VIN_w"].is_number()) << row.dump();
  const double total = row["power_w"].get<double>();
  EXPECT_NEAR(total, row["rail_VIN_w"].get<double>(), 0.02 * total) << row.dump();
  EXPECT_GT(total, row["rail_VDD_CPU_SOC_MSS_w"].get<double>() + row["rail_VIN_SYS_5V0_w"].get<double>()) << row.dump();
  EXPECT_GT(total, 10.0) << row.dump();  // an idle Thor devkit draws well over 10 W
}

}  // namespace

TEST(thor_jobs_sim, quickstart_gemm_sweep_and_a_layers_job_succeed_on_vin) {
  temp_dir sim;
  daemon_process daemon({"--board", "sim:thor", "--sim-dir", sim.path()});
  http_client http(daemon.port(), std::chrono::seconds(30));

  // deploy/quickstart.sh's sweep: 2 CPU clocks x 3 sizes, float, one thread.
  const json gemm = {{"device", "cpu"},          {"dtypes", {"float"}}, {"sizes", {64, 128, 192}},
                     {"cpu_freqs", {"min", "max"}}, {"threads", 1},      {"warmup_s", 0.05},
                     {"min_time_s", 0.2},        {"max_time_s", 1.0},   {"target_rse", 0.02}};
  auto r = http.request("POST", "/v1/jobs", json{{"kind", "gemm"}, {"spec", gemm}, {"tags", {"quickstart"}}}.dump(), bearer(daemon.token()));
  ASSERT_EQ(r.status, 201) << r.body;
  const auto gemm_id = json_of(r)["id"].get<std::int64_t>();

  // A short layers job: resnet18's blocks on the CPU, adaptive, short windows, no end-to-end run.
  const json layers = {{"models", "resnet18"}, {"devices", "cpu"},    {"latency_samples", 5},
                       {"warmup_runs", 1},     {"min_time_s", 0.05},  {"max_time_s", 0.3},
                       {"target_rse", 0.05},   {"boundary_s", 0.02},  {"threads", 1},
                       {"end_to_end", false}};
  r = http.request("POST", "/v1/jobs", json{{"kind", "layers"}, {"spec", layers}}.dump(), bearer(daemon.token()));
  ASSERT_EQ(r.status, 201) << r.body;
  const auto layers_id = json_of(r)["id"].get<std::int64_t>();

  ASSERT_EQ(wait_state(http, gemm_id, {"succeeded", "partial", "failed", "cancelled"}, std::chrono::seconds(180)),
            "succeeded")
      << daemon.log();
  const auto g = json_of(http.request("GET", "/v1/jobs/" + std::to_string(gemm_id) + "/results"));
  ASSERT_EQ(g["rows"].size(), 6u) << g.dump(1);
  for (const auto& row : g["rows"]) {
    expect_power_from_vin(row);
    EXPECT_GT(row["gflops"].get<double>(), 0.0) << row.dump();
  }
  expect_vin_total(g["provenance"]);

  ASSERT_EQ(wait_state(http, layers_id, {"succeeded", "partial", "failed", "cancelled"}, std::chrono::seconds(240)),
            "succeeded")
      << daemon.log();
  const auto l = json_of(http.request("GET", "/v1/jobs/" + std::to_string(layers_id) + "/results"));
  ASSERT_EQ(l["rows"].size(), 14u) << l.dump(1);  // resnet18's 14 blocks
  for (const auto& row : l["rows"]) {
    expect_power_from_vin(row);
    EXPECT_GT(row["latency_mean_s"].get<double>(), 0.0) << row.dump();
  }
  expect_vin_total(l["provenance"]);
}
