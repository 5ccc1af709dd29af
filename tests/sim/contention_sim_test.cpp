// Contention measured, not assumed (issue 34): a CPU GEMM sweep on a simulated Orin with a CPU
// hog on every core of the host beside it. Each window's others_cpu_share (from /proc/stat less
// the daemon's own CPU time) is over the threshold, the window is measured again max_retries
// times, the point is kept flagged contended, and the verdicts leave every such point out and
// say so: no "most efficient" setting is named from contaminated windows.
#include <gtest/gtest.h>

#include <jetperf/config.hpp>
#include <support/cpu_hogs.hpp>

#include "backbone_helpers.hpp"

using namespace jetperf::test;
using nlohmann::json;

namespace {

// Submits a `kind` job and waits for its end, with a CPU hog on every core of the host until it
// ends; the job must succeed (a contended window is kept, flagged, not failed). Returns its id.
std::int64_t run_beside_hogs(daemon_process& daemon, http_client& http, const char* kind, const json& spec) {
  const cpu_hogs hogs;  // one per core
  EXPECT_GT(hogs.count(), 0u);
  const auto submitted =
      http.request("POST", "/v1/jobs", json{{"kind", kind}, {"spec", spec}}.dump(), bearer(daemon.token()));
  EXPECT_EQ(submitted.status, 201) << submitted.body;
  if (submitted.status != 201) return 0;
  const auto id = json_of(submitted)["id"].get<std::int64_t>();
  EXPECT_EQ(wait_state(http, id, {"succeeded", "partial", "failed", "cancelled"}, std::chrono::seconds(120)), "succeeded")
      << daemon.log();
  return id;
}

}  // namespace

TEST(contention_sim, windows_a_hog_took_the_cpu_from_are_retried_flagged_and_left_out_of_the_verdict) {
  temp_dir sim;
  daemon_process daemon({"--board", "sim:orin-agx", "--sim-dir", sim.path()});
  http_client http(daemon.port(), std::chrono::seconds(30));
  const json spec = {{"device", "cpu"},      {"dtypes", {"float"}}, {"sizes", {64, 96}}, {"threads", 1},
                     {"warmup_s", 0.05},     {"duration_s", 0.3},   {"boundary_s", 0.02}, {"max_retries", 1},
                     {"contention_threshold", 0.05}};
  const auto id = run_beside_hogs(daemon, http, "gemm", spec);
  ASSERT_GT(id, 0);
  const auto results = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results"));
  const auto& rows = results["rows"];
  ASSERT_EQ(rows.size(), 2u) << results.dump(1);
  for (const auto& row : rows) {
    // The hogs held every core: others took well over the 5% allowed, in every window.
    EXPECT_GT(row["others_cpu_share"].get<double>(), 0.3) << row.dump();
    EXPECT_EQ(row["retries"], 1) << row.dump();
    const auto& flags = row["flags"];
    EXPECT_NE(std::find(flags.begin(), flags.end(), "contended"), flags.end()) << row.dump();
    EXPECT_EQ(row["status"], "ok");  // measured, with its power: kept, flagged
  }
  const auto& summary = results["summary"];
  EXPECT_TRUE(summary["best_overall"].is_null()) << summary.dump();
  EXPECT_EQ(summary["left_out"]["contended"], 2) << summary.dump();
  bool said = false;
  for (const auto& c : summary["caveats"]) said = said || c.get<std::string>().find("2 of 2 points contended") == 0;
  EXPECT_TRUE(said) << summary.dump();
  // The retried windows are on the job's timeline under their own name.
  const auto trace = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/trace?counters=none"));
  int contended_windows = 0;
  for (const auto& e : trace["traceEvents"]) contended_windows += e.value("name", "") == "contended window" ? 1 : 0;
  EXPECT_EQ(contended_windows, 2);
  // compare lists every point with why it was left out, and names no best.
  const auto cmp = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/compare?by=m"));
  ASSERT_EQ(cmp["rows"].size(), 2u) << cmp.dump();  // n and k follow m: one point a row
  for (const auto& row : cmp["rows"]) {
    EXPECT_TRUE(row["best_m"].is_null()) << row.dump();
    EXPECT_EQ(row["left_out"], 1);
    EXPECT_EQ(row["values"][0]["left_out"], "contended");
  }
}

#if JETPERF_HAS_ONEDNN
// multi_dnn's concurrent window alike: measured again while the networks run on, kept flagged,
// and no best mapping named from it.
TEST(contention_sim, a_multi_dnn_window_a_hog_took_the_cpu_from_is_retried_flagged_and_left_out) {
  temp_dir sim;
  daemon_process daemon({"--board", "sim:orin-agx", "--sim-dir", sim.path()});
  http_client http(daemon.port(), std::chrono::seconds(30));
  const json spec = {{"mappings", {{{"squeezenet1_0", {{"18", "cpu"}}}}}},
                     {"protocol", "fixed"},
                     {"window_s", 0.5},
                     {"boundary_s", 0.05},
                     {"warmup_runs", 1},
                     {"cpu_freqs", {"max"}},
                     {"max_retries", 1},
                     {"contention_threshold", 0.05}};
  const auto id = run_beside_hogs(daemon, http, "multi_dnn", spec);
  ASSERT_GT(id, 0);
  const auto results = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results"));
  const auto& rows = results["rows"];
  ASSERT_EQ(rows.size(), 1u) << results.dump(1);
  const auto& row = rows[0];
  EXPECT_GT(row["others_cpu_share"].get<double>(), 0.3) << row.dump();
  EXPECT_EQ(row["retries"], 1) << row.dump();
  const auto& flags = row["flags"];
  EXPECT_NE(std::find(flags.begin(), flags.end(), "contended"), flags.end()) << row.dump();
  EXPECT_EQ(row["status"], "ok");
  EXPECT_GT(row["inference_count"].get<std::int64_t>(), 0) << row.dump();
  const auto& summary = results["summary"];
  EXPECT_TRUE(summary["best_throughput"].is_null()) << summary.dump();
  EXPECT_TRUE(summary["best_efficiency"].is_null()) << summary.dump();
  EXPECT_EQ(summary["left_out"]["contended"], 1) << summary.dump();
  const auto trace = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/trace?counters=none"));
  int contended_windows = 0;
  for (const auto& e : trace["traceEvents"]) contended_windows += e.value("name", "") == "contended window" ? 1 : 0;
  EXPECT_EQ(contended_windows, 1);
}
#endif
