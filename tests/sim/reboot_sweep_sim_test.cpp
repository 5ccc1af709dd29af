// Power modes that need a reboot, on a simulated AGX Orin (default MODE_30W, TPC gating 240):
// every other mode changes GPU power gating. Without allow_reboot such a sweep is refused up
// front; with it the daemon journals the job, "reboots" (the simulated board restarts jetperfd,
// whose start boots the pending mode) and resumes the job at its point, and puts the original
// mode back at the end through one more reboot.
#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include <jetperf/store/database.hpp>
#include <jetperf/store/job_store.hpp>
#include <jetperf/store/snapshot_store.hpp>

#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

using nlohmann::json;

// A tiny CPU GEMM per power mode: the test is about the reboots, not the numbers.
json sweep_spec() {
  return {{"device", "cpu"},     {"dtypes", {"float"}}, {"sizes", {64}},       {"threads", 1},
          {"warmup_s", 0.01},    {"min_time_s", 0.05},  {"max_time_s", 0.5},   {"target_rse", 0.2},
          {"min_samples", 3},    {"boundary_s", 0.01},  {"power_modes", "all"}};
}

// One request to a daemon that may be restarting: follows its ready file to the new port and
// retries until `ok` accepts the answer or the time is up.
std::optional<http_result> ask(daemon_process& d, const std::string& method, const std::string& target,
                               const std::function<bool(const http_result&)>& ok,
                               std::chrono::seconds timeout = std::chrono::seconds(120)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::optional<http_result> last;
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      http_client http(d.reload_port(), std::chrono::seconds(5));
      last = http.request(method, target);
      if (ok(*last)) return last;
    } catch (const std::exception&) {
      // Connection refused or cut: the daemon is between its two lives.
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return last;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

TEST(reboot_sweep_sim, without_allow_reboot_the_sweep_is_refused_naming_the_field) {
  temp_dir sim;
  daemon_process daemon({"--board", "sim:orin-agx", "--sim-dir", sim.path()});
  http_client http(daemon.port());
  for (const bool dry : {true, false}) {
    const auto r = http.request("POST", "/v1/jobs", json{{"kind", "gemm"}, {"spec", sweep_spec()}, {"dry_run", dry}}.dump(),
                                bearer(daemon.token()));
    ASSERT_EQ(r.status, 400) << r.body;
    const auto e = json_of(r)["error"];
    EXPECT_EQ(e["field"], "spec.allow_reboot") << r.body;
    EXPECT_EQ(e["code"], "reboot_needed") << r.body;
    const auto message = e["message"].get<std::string>();
    EXPECT_NE(message.find("2 (MODE_30W) -> 0 (MAXN)"), std::string::npos) << message;
    EXPECT_NE(message.find("3 (MODE_50W) -> 2 (MODE_30W) when the job ends"), std::string::npos) << message;
  }
  // A mode reachable without a reboot (the current one) is accepted as before.
  auto spec = sweep_spec();
  spec["power_modes"] = {2};
  const auto r = http.request("POST", "/v1/jobs", json{{"kind", "gemm"}, {"spec", spec}, {"dry_run", true}}.dump(),
                              bearer(daemon.token()));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json_of(r)["reboots"], json::array()) << r.body;
  EXPECT_EQ(json_of(r)["spec"]["allow_reboot"], false) << r.body;
  EXPECT_EQ(count(daemon.log(), "shutting down to start again"), 0u);
}

TEST(reboot_sweep_sim, sweep_over_every_mode_reboots_resumes_and_restores) {
  temp_dir sim;
  daemon_process daemon({"--board", "sim:orin-agx", "--sim-dir", sim.path()});
  auto spec = sweep_spec();
  spec["allow_reboot"] = true;
  std::int64_t id = 0;
  {
    http_client http(daemon.port());
    ASSERT_EQ(json_of(http.request("GET", "/v1/power-mode"))["id"], 2);

    // The dry run lists every switch that reboots: into 0, 1, 2 and 3 in sweep order, then back to 2.
    const auto dry = http.request("POST", "/v1/jobs", json{{"kind", "gemm"}, {"spec", spec}, {"dry_run", true}}.dump(),
                                  bearer(daemon.token()));
    ASSERT_EQ(dry.status, 200) << dry.body;
    const json expected = json::array({{{"from", 2}, {"to", 0}, {"restore", false}},
                                       {{"from", 0}, {"to", 1}, {"restore", false}},
                                       {{"from", 1}, {"to", 2}, {"restore", false}},
                                       {{"from", 2}, {"to", 3}, {"restore", false}},
                                       {{"from", 3}, {"to", 2}, {"restore", true}}});
    EXPECT_EQ(json_of(dry)["reboots"], expected) << dry.body;

    const auto submitted =
        http.request("POST", "/v1/jobs", json{{"kind", "gemm"}, {"spec", spec}}.dump(), bearer(daemon.token()));
    ASSERT_EQ(submitted.status, 201) << submitted.body;
    id = json_of(submitted)["id"].get<std::int64_t>();
    EXPECT_EQ(json_of(submitted)["progress"]["total"], 4);
  }
  const std::string job = "/v1/jobs/" + std::to_string(id);

  const auto finished = ask(daemon, "GET", job, [](const http_result& r) {
    const auto s = json_of(r).value("state", std::string());
    return s == "succeeded" || s == "failed" || s == "cancelled";
  }, std::chrono::seconds(240));
  ASSERT_TRUE(finished) << daemon.log();
  ASSERT_EQ(json_of(*finished)["state"], "succeeded") << finished->body << "\n" << daemon.log();
  EXPECT_EQ(json_of(*finished)["error"], nullptr) << finished->body;

  // Every mode measured, in sweep order, each as the board read it back.
  const auto results = ask(daemon, "GET", job + "/results", [](const http_result& r) { return r.status == 200; });
  ASSERT_TRUE(results);
  const auto rows = json_of(*results)["rows"];
  ASSERT_EQ(rows.size(), 4u) << results->body;
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(rows[i]["status"], "ok") << rows[i].dump();
    EXPECT_EQ(rows[i]["power_mode"], i) << rows[i].dump();
    EXPECT_GT(rows[i]["gflops"].get<double>(), 0.0) << rows[i].dump();
  }

  // The original mode comes back through the fifth reboot, and the snapshot is closed after it.
  const auto mode = ask(daemon, "GET", "/v1/power-mode", [](const http_result& r) {
    return r.status == 200 && json_of(r).value("id", -1) == 2;
  });
  ASSERT_TRUE(mode) << daemon.log();
  EXPECT_EQ(json_of(*mode)["id"], 2) << mode->body;
  const auto clocks = ask(daemon, "GET", "/v1/clocks", [](const http_result& r) {
    return r.status == 200 && json_of(r).value("armed", true) == false;
  });
  ASSERT_TRUE(clocks && json_of(*clocks)["armed"] == false) << (clocks ? clocks->body : "") << daemon.log();

  // Five restarts in the log: four for the job's points, one for the restore.
  const auto log = daemon.log();
  EXPECT_EQ(count(log, "the simulated board reboots: shutting down to start again"), 5u) << log;
  EXPECT_EQ(count(log, "simulated board: booted into power mode"), 5u) << log;
  EXPECT_EQ(daemon.stop(), 0) << log;

  // The job's own record of it: a "reboot" before each switch and a "rebooted" after each boot.
  store::database db(daemon.db_path());
  std::vector<std::pair<std::string, json>> seen;
  for (const auto& e : store::job_store(db).events(id))
    if (e.type == "reboot" || e.type == "rebooted") seen.emplace_back(e.type, e.data);
  ASSERT_EQ(seen.size(), 8u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(seen[2 * i].first, "reboot");
    EXPECT_EQ(seen[2 * i].second["index"], i);
    EXPECT_EQ(seen[2 * i].second["power_mode"], i);
    EXPECT_EQ(seen[2 * i + 1].first, "rebooted");
    EXPECT_EQ(seen[2 * i + 1].second["booted_in"], i);
  }
  EXPECT_FALSE(store::snapshot_store(db).oldest_open()) << "the board's snapshot is still open";
}

}  // namespace
}  // namespace jetperf::test
