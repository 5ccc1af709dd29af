// The whole path of a GPU point's kernels, on a real GPU: the daemon on the `dgpu` board runs a
// layers job on cuDNN, and its exported trace (GET /v1/jobs/{id}/trace) holds, for every point,
// the runs traced after the window and their kernels inside them.
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <jetperf/workloads/gemm_backends.hpp>

#include <support/daemon_process.hpp>
#include <support/finished_job.hpp>
#include <support/http_client.hpp>

using namespace jetperf;
using namespace jetperf::test;
using nlohmann::json;

TEST(kernel_trace_daemon_gpu, a_layers_job_on_the_dgpu_board_exports_each_points_kernels_inside_its_traced_runs) {
  if (!workloads::cuda_device_available()) GTEST_SKIP() << "skipped: no CUDA device";
  daemon_process d({"--board", "dgpu", "--log-level", "warn"});
  http_client http(d.port(), std::chrono::seconds(120));
  const json spec = {{"models", "resnet18"}, {"devices", "cuda"}, {"granularity", "block"}, {"protocol", "adaptive"},
                     {"min_time_s", 0.2},    {"max_time_s", 1.0},   {"end_to_end", false}};
  const auto job = run_job(d, http, "layers", spec);
  ASSERT_EQ(job.results["rows"].size(), 14u) << job.results.dump();
  const auto r = http.request("GET", "/v1/jobs/" + job.id + "/trace?counters=none");
  ASSERT_EQ(r.status, 200) << r.body;
  const auto trace = json::parse(r.body);

  // Per point: the traced runs in order, and the kernels.
  std::map<int, std::vector<json>> runs, kernels;
  for (const auto& e : trace["traceEvents"]) {
    if (!e.contains("cat") || !e.contains("args") || !e["args"].contains("point")) continue;
    const int point = e["args"]["point"].get<int>();
    if (e["cat"] == "runs" && e["args"].value("kernel_trace", false)) runs[point].push_back(e);
    if (e["cat"] == "kernels") kernels[point].push_back(e);
  }
  ASSERT_EQ(runs.size(), 14u) << "every point has its traced runs";
  for (const auto& [point, traced] : runs) {
    SCOPED_TRACE("point " + std::to_string(point));
    ASSERT_EQ(traced.size(), 3u);
    ASSERT_FALSE(kernels[point].empty());
    const double slack_us = traced.front()["args"].value("clock_uncertainty_ns", 0.0) / 1000.0 + 20.0;
    EXPECT_EQ(traced.front()["args"]["kernels_unattributed"], 0);
    for (const auto& k : kernels[point]) {
      ASSERT_EQ(k["ph"], "X") << k.dump();
      ASSERT_TRUE(k["args"]["run"].is_number()) << k.dump();
      const auto& run = traced.at(k["args"]["run"].get<std::size_t>());
      EXPECT_GE(k["ts"].get<double>(), run["ts"].get<double>() - slack_us) << k.dump();
      EXPECT_LE(k["ts"].get<double>() + k["dur"].get<double>(),
                run["ts"].get<double>() + run["dur"].get<double>() + slack_us)
          << k.dump();
      EXPECT_EQ(k["args"]["grid"].size(), 3u);
      EXPECT_EQ(k["args"]["block"].size(), 3u);
    }
  }
}
