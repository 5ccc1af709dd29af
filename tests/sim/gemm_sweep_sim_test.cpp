// A CPU GEMM sweep end to end on a simulated Orin: the real daemon on the simulated board, the
// sweep over two CPU clocks and three sizes, and results that are consistent with each other and
// with the simulator's power model (a higher CPU clock draws more power).
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "backbone_helpers.hpp"

using namespace jetperf::test;
using nlohmann::json;

TEST(gemm_sweep_sim, two_cpu_clocks_three_sizes_on_a_simulated_orin) {
  temp_dir sim;
  daemon_process daemon({"--board", "sim:orin-agx", "--sim-dir", sim.path()});
  http_client http(daemon.port(), std::chrono::seconds(30));

  const json spec = {{"device", "cpu"},      {"dtypes", {"float"}},  {"sizes", {64, 128, 192}},
                     {"cpu_freqs", {"min", "max"}}, {"threads", 1},   {"warmup_s", 0.05},
                     {"min_time_s", 0.2},    {"max_time_s", 1.0},    {"target_rse", 0.05},
                     {"min_samples", 5},     {"boundary_s", 0.02}};
  const auto submitted = http.request("POST", "/v1/jobs", json{{"kind", "gemm"}, {"spec", spec}}.dump(),
                                      bearer(daemon.token()));
  ASSERT_EQ(submitted.status, 201) << submitted.body;
  const auto job = json_of(submitted);
  ASSERT_EQ(job["progress"]["total"], 6);
  EXPECT_GT(job["estimate_s"].get<double>(), 0.0);
  const auto id = job["id"].get<std::int64_t>();

  ASSERT_EQ(wait_state(http, id, {"succeeded", "failed", "cancelled"}, std::chrono::seconds(120)), "succeeded")
      << daemon.log();
  const auto results = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results"));
  const auto& rows = results["rows"];
  ASSERT_EQ(rows.size(), 6u) << results.dump(1);

  // Sweep order keeps the clock outermost: one clock change between the two halves.
  const auto low = rows[0]["cpu_freq_khz"].get<std::int64_t>();
  const auto high = rows[5]["cpu_freq_khz"].get<std::int64_t>();
  ASSERT_LT(low, high);

  std::map<std::int64_t, double> power_by_clock;
  for (const auto& row : rows) {
    ASSERT_EQ(row["status"], "ok") << row.dump();
    const double gflops = row["gflops"].get<double>();
    const double power = row["power_w"].get<double>();
    EXPECT_GT(gflops, 0.0);
    EXPECT_GT(power, 1.0);
    EXPECT_NEAR(row["gflops_per_w"].get<double>(), gflops / power, 1e-9 * gflops / power);
    EXPECT_NEAR(row["energy_j"].get<double>(), power * row["time_mean_s"].get<double>(), 1e-9 * power);
    EXPECT_EQ(row["dtype"], "float");
    power_by_clock[row["cpu_freq_khz"].get<std::int64_t>()] += power / 3.0;
  }
  EXPECT_GT(power_by_clock[high], power_by_clock[low] * 1.02)
      << "mean power at " << high << " kHz vs " << low << " kHz";

  // The summary names the most efficient setting, and compare finds the best clock per size; on
  // a host busy enough that every point was contended or short of its target, it names none and
  // counts them.
  const auto& summary = results["summary"];
  int left_out = 0;
  for (const auto& [why, n] : summary["left_out"].items()) left_out += n.get<int>();
  EXPECT_TRUE(summary["best_overall"].is_object() || left_out == 6) << summary.dump();
  const auto cmp = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/compare?by=cpu_freq_khz"));
  ASSERT_EQ(cmp["rows"].size(), 3u) << cmp.dump();
}
