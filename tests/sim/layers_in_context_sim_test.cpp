// Per-layer power from end-to-end runs (protocol in_context) on a simulated Orin's CPU, against
// each layer run alone (protocol adaptive) on the same board. The simulator gives each op the
// power of the work it does (common/work_activity.hpp: its MACs per byte), so layers draw
// distinct power, in isolation and in context alike; the sensor updates every 19.584 ms, and
// every 4.896 ms while an in_context point has it average 4 samples (the daemon then polls the
// rails every 1.25 ms for the point, its other sensors and the rest of the time every 10 ms).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <jetperf/config.hpp>

#include "backbone_helpers.hpp"

using namespace jetperf::test;
using nlohmann::json;

#if JETPERF_HAS_ONEDNN
namespace {

// The rows after the end-to-end row and its `layers` layers are the merged groups, one each:
// layer_index null, the members each `merged` with no figure of their own, named in the group's
// merged_with and layer_name, and the group's energy its power over the members' time together.
void check_groups(const json& rows, std::size_t layers) {
  std::map<std::string, int> in_groups;
  for (std::size_t i = layers + 1; i < rows.size(); ++i) {
    const auto& g = rows[i];
    ASSERT_EQ(g["layer_resolution"], "group") << g.dump();
    EXPECT_TRUE(g["layer_index"].is_null()) << g.dump();
    std::vector<std::string> members;
    const auto listed = g["merged_with"].get<std::string>() + ", ";
    for (std::size_t at = 0, comma; (comma = listed.find(", ", at)) != std::string::npos; at = comma + 2)
      members.push_back(listed.substr(at, comma - at));
    double seconds = 0;
    std::string name;
    for (std::size_t l = 1; l <= layers; ++l) {
      const auto& m = rows[l];
      const auto member = m["layer_name"].get<std::string>();
      if (std::find(members.begin(), members.end(), member) == members.end()) continue;
      EXPECT_EQ(m["layer_resolution"], "merged") << m.dump();
      ++in_groups[member];
      seconds += m["latency_mean_s"].get<double>();
      name += (name.empty() ? "" : " + ") + member;
    }
    EXPECT_EQ(g["layer_name"], name) << g.dump();
    EXPECT_NEAR(g["latency_mean_s"].get<double>(), seconds, 1e-12) << g.dump();
    EXPECT_NEAR(g["energy_j"].get<double>(), g["power_w"].get<double>() * seconds, 1e-12) << g.dump();
    EXPECT_GT(g["power_ci95_w"].get<double>(), 0.0) << g.dump();
  }
  for (std::size_t l = 1; l <= layers; ++l) {
    if (rows[l]["layer_resolution"] != "merged") continue;
    EXPECT_TRUE(rows[l]["power_w"].is_null()) << rows[l].dump();
    EXPECT_EQ(in_groups[rows[l]["layer_name"].get<std::string>()], 1) << rows[l].dump();
  }
}

}  // namespace

TEST(layers_in_context_sim, every_layers_power_from_end_to_end_runs_agrees_with_it_run_alone) {
  temp_dir sim;
  daemon_process daemon({"--board", "sim:orin-agx", "--sim-dir", sim.path()});
  http_client http(daemon.port(), std::chrono::seconds(30));
  // One thread at the highest CPU clock: the job's thread runs at the host's speed, so the
  // simulated board's sampler is not starved (README, simulated boards).
  const json common = {{"models", "resnet18"}, {"devices", "cpu"}, {"granularity", "block"}, {"threads", 1},
                       {"cpu_freqs", {"max"}}, {"warmup_runs", 3}};
  auto isolated_spec = common;
  isolated_spec.update({{"protocol", "adaptive"}, {"latency_samples", 10}, {"min_time_s", 0.5}, {"max_time_s", 3.0},
                        {"target_rse", 0.005}, {"end_to_end", false}});
  auto context_spec = common;
  // max_time_s leaves room for a loaded host (CI runs two tests at once): there the sensor clock
  // takes longer to fit and 20 s was seen to run out (the job then fails, rightly).
  context_spec.update({{"protocol", "in_context"}, {"max_time_s", 60.0}});
  std::map<std::string, std::int64_t> ids;
  for (const auto& [name, spec] : {std::make_pair("isolated", isolated_spec), std::make_pair("in_context", context_spec)}) {
    const auto r = http.request("POST", "/v1/jobs", json{{"kind", "layers"}, {"spec", spec}}.dump(), bearer(daemon.token()));
    ASSERT_EQ(r.status, 201) << r.body;
    ids[name] = json_of(r)["id"].get<std::int64_t>();
  }
  for (const auto& [name, id] : ids)
    ASSERT_EQ(wait_state(http, id, {"succeeded", "failed", "cancelled"}, std::chrono::seconds(300)), "succeeded")
        << name << "\n" << daemon.log();
  const auto rows_of = [&](std::int64_t id) {
    return json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results"))["rows"];
  };
  const auto iso = rows_of(ids["isolated"]);
  const auto ctx = rows_of(ids["in_context"]);
  ASSERT_EQ(iso.size(), 14u);
  // The end-to-end row, then each of the 14 blocks, then one row per merged group.
  ASSERT_GE(ctx.size(), 15u) << ctx.dump(1);
  check_groups(ctx, 14);

  // The simulator's layers differ: a residual block's convolutions draw more than an element-wise
  // op (dynamic power: the simulated CPU's share of it follows the job's CPU time, which other
  // work on the host lowers alike for both).
  EXPECT_GT(iso[4]["dynamic_power_w"].get<double>(), 1.5 * iso[2]["dynamic_power_w"].get<double>())
      << "layer1.0 " << iso[4]["dynamic_power_w"] << " relu " << iso[2]["dynamic_power_w"];

  const auto& e2e = ctx[0];
  EXPECT_EQ(e2e["layer_index"], -1);
  EXPECT_EQ(e2e["protocol"], "in_context");
  const auto& est = e2e["estimator"];
  EXPECT_TRUE(est["unresolvable"].is_null()) << est.dump();
  // At least 20 readings beyond the unknowns before the intervals are acted on (the protocol's rule).
  EXPECT_GE(est["readings"].get<int>(), est["units"].get<int>() + 20) << est.dump();
  EXPECT_TRUE(est["condition_number"].is_number()) << est.dump();
  // auto's window for the daemon's fastest polls (1 ms): 4 samples, which the driver says as 5 ms,
  // polled every 1.25 ms for the point; the sensor's clock, found from which polls changed, is
  // the simulated chip's 4.896 ms.
  EXPECT_EQ(e2e["sensor_samples"], 4) << e2e.dump();
  // The row states the period the readings were placed with, the runs' own fit, not the driver's
  // rounded 5 ms.
  EXPECT_NEAR(e2e["sensor_update_period_s"].get<double>(), 0.004896, 0.00005) << e2e.dump();
  EXPECT_EQ(e2e["sensor_period_source"], "fit") << e2e.dump();
  EXPECT_EQ(est["sensor_facts"]["delay_source"], "fit") << est.dump();
  EXPECT_GE(est["sensor_facts"]["delay_s"].get<double>(), 0.0) << est.dump();
  EXPECT_NEAR(est["sensor"]["poll_period_s"].get<double>(), 0.00125, 1e-9) << est.dump();
  EXPECT_NEAR(est["sensor"]["period_s"].get<double>(), 0.004896, 0.00005) << est.dump();
  // The idle baseline is 30 of those readings (0.15 s at the driver's 5 ms) between the default 0.05 s boundaries,
  // not the isolated protocol's half second.
  const auto trace = json_of(http.request("GET", "/v1/jobs/" + std::to_string(ids["in_context"]) + "/trace"));
  double idle_s = 0;
  for (const auto& ev : trace["traceEvents"])
    if (ev.value("cat", "") == "idle" && ev.value("ph", "") == "X") idle_s += ev["dur"].get<double>() * 1e-6;
  EXPECT_NEAR(idle_s, 30 * 0.005 + 2 * 0.05, 0.02) << "the idle baseline's span on the job's timeline";
  // Each run after the first starts after a pause of one and a half sensor windows, where the
  // estimator measures the board (the simulated one falls to its idle power when the work stops);
  // the end-to-end row's power is the runs' own, the pauses taken out, and says it paused.
  const auto& between = est["between_runs"];
  EXPECT_EQ(between["pauses"].get<int>() + 1, est["runs"].get<int>()) << est.dump();
  EXPECT_GE(between["paused_s"].get<double>(), 1.5 * 0.004896 * between["pauses"].get<double>()) << est.dump();
  EXPECT_NEAR(between["power_w"].get<double>(), e2e["idle_power_w"].get<double>(),
              2 * between["power_ci95_w"].get<double>() + 0.03)
      << est.dump();
  EXPECT_GT(between["window_power_w"].get<double>(), 0.0);
  EXPECT_GT(e2e["power_w"].get<double>(), between["window_power_w"].get<double>()) << "the pauses drew less than the runs";
  const auto flags = e2e["flags"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(flags.begin(), flags.end(), "paused_between_runs"), flags.end()) << e2e["flags"];
  // The layers add up to the run: energy per run from the window (its pauses taken out) against
  // the layers' sum, within 1% (the window still holds the checks' solves, about 1% of it).
  EXPECT_NEAR(e2e["layer_energy_sum_j"].get<double>(), e2e["energy_j"].get<double>(),
              3 * e2e["layer_energy_sum_ci95_j"].get<double>() + 0.01 * e2e["energy_j"].get<double>())
      << e2e.dump();

  // The provenance records how the rails average between points: the simulated chips' 16
  // samples, 20 ms, put back after the point, and the sampler's 10 ms again.
  const auto job = json_of(http.request("GET", "/v1/jobs/" + std::to_string(ids["in_context"])));
  EXPECT_DOUBLE_EQ(job["provenance"]["sampling"]["period_s"].get<double>(), 0.010) << job["provenance"].dump();
  const auto& channels = job["provenance"]["power_sensor"]["channels"];
  ASSERT_FALSE(channels.empty()) << job["provenance"].dump();
  EXPECT_EQ(channels[0]["averaging_samples"], 16) << channels.dump();
  EXPECT_EQ(channels[0]["update_interval_ms"], 20) << channels.dump();

  // Every figure against the simulator's own (sim_power_w, over the same work): a layer's or a
  // group's power within its 95% interval, the first layer after the pause included (it read
  // low in 14 of 15 jobs when the runner's bookkeeping between runs loaded the simulated pauses).
  // One row in twenty may fall outside by chance; this job has 10 to 15.
  std::size_t own = 0, with_figure = 0, inside = 0;
  for (std::size_t i = 1; i < ctx.size(); ++i) {
    const auto& c = ctx[i];
    const auto res = c["layer_resolution"].get<std::string>();
    ASSERT_TRUE(res == "resolved" || res == "not_converged" || res == "merged" || res == "group") << c.dump();
    ASSERT_TRUE(c["sim_power_w"].is_number()) << c.dump();
    EXPECT_GT(c["sim_dynamic_w"].get<double>(), 0.3) << c.dump();
    if (i <= iso.size()) {
      EXPECT_EQ(c["layer_name"], iso[i - 1]["layer_name"]);
      EXPECT_EQ(c["macs"], iso[i - 1]["macs"]);
      // A layer row carries its own figures, not the network's.
      EXPECT_TRUE(c["power_samples"].is_null()) << c.dump();
    }
    if (res == "merged") continue;  // its group's row has the figure (check_groups)
    own += res != "group";
    ++with_figure;
    ASSERT_TRUE(c["power_w"].is_number()) << c.dump();
    EXPECT_NEAR(c["energy_j"].get<double>(), c["power_w"].get<double>() * c["latency_mean_s"].get<double>(), 1e-12);
    const double half = c["power_ci95_w"].get<double>();
    EXPECT_GT(half, 0.0);
    const bool holds = std::fabs(c["power_w"].get<double>() - c["sim_power_w"].get<double>()) <= half;
    inside += holds;
    if (!holds)
      std::cerr << c["layer_name"] << ": " << c["power_w"] << " +- " << half << " W, the simulator's "
                << c["sim_power_w"] << " W\n";
  }
  // The residual blocks (1 to 5 ms each, against a 4.9 ms window) have figures of their own.
  EXPECT_GE(own, 6u) << ctx.dump(1);
  EXPECT_GE(inside + 1, with_figure) << ctx.dump(1);
  // The end-to-end row: the runs' own power against the simulator's over them, within 2% of the
  // dynamic power (the pauses' power is taken out at an estimate).
  EXPECT_NEAR(e2e["power_w"].get<double>(), e2e["sim_power_w"].get<double>(), 0.05 * e2e["sim_dynamic_w"].get<double>())
      << e2e.dump();
  // Each layer run alone against the simulator's figure over its window.
  for (const auto& s : iso) {
    ASSERT_TRUE(s["sim_power_w"].is_number()) << s.dump();
    EXPECT_NEAR(s["power_w"].get<double>(), s["sim_power_w"].get<double>(), 0.05 * s["sim_dynamic_w"].get<double>() + 0.02)
        << s.dump();
  }
}

// The sensor's window made shorter for the point: with the sampler reading every millisecond,
// auto sets the simulated INA3221s to 4 samples (3 x 4 x 408 us = 4.896 ms, which the driver
// says as 5 ms), the sensor's clock is found at that period, and the chips average 16 again
// once the point is over. A count the chips do not have is refused naming the field.
TEST(layers_in_context_sim, a_fast_sampler_gets_a_shorter_sensor_window_put_back_after_the_point) {
  temp_dir sim;
  daemon_process daemon({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--sample-period-ms", "1"});
  http_client http(daemon.port(), std::chrono::seconds(30));
  const std::string samples_file = sim.path() + "/orin-agx/root/sys/bus/i2c/devices/1-0040/hwmon/hwmon3/samples";
  ASSERT_EQ(read_file(samples_file), "16\n");
  const json spec = {{"models", "resnet18"}, {"devices", "cpu"}, {"granularity", "block"}, {"threads", 1},
                     {"cpu_freqs", {"max"}}, {"warmup_runs", 3}, {"protocol", "in_context"}, {"max_time_s", 6.0}};
  auto bad = spec;
  bad["sensor_samples"] = 5;
  const auto refused = http.request("POST", "/v1/jobs", json{{"kind", "layers"}, {"spec", bad}}.dump(), bearer(daemon.token()));
  EXPECT_EQ(refused.status, 400) << refused.body;
  EXPECT_EQ(json_of(refused)["error"]["field"], "spec.sensor_samples") << refused.body;

  const auto r = http.request("POST", "/v1/jobs", json{{"kind", "layers"}, {"spec", spec}}.dump(), bearer(daemon.token()));
  ASSERT_EQ(r.status, 201) << r.body;
  const auto id = json_of(r)["id"].get<std::int64_t>();
  ASSERT_EQ(wait_state(http, id, {"succeeded", "failed", "cancelled"}, std::chrono::seconds(120)), "succeeded")
      << daemon.log();
  const auto job = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id)));
  EXPECT_EQ(job["spec"]["sensor_samples"], "auto") << job["spec"].dump();
  const auto rows = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results"))["rows"];
  ASSERT_GE(rows.size(), 15u) << rows.dump(1);
  check_groups(rows, 14);
  const auto& e2e = rows[0];
  EXPECT_EQ(e2e["sensor_samples"], 4) << e2e.dump();
  EXPECT_NEAR(e2e["sensor_update_period_s"].get<double>(), 0.004896, 0.00005) << e2e.dump();
  const auto& est = e2e["estimator"];
  EXPECT_TRUE(est["unresolvable"].is_null()) << est.dump();
  EXPECT_EQ(est["sensor"]["nominal_period_s"], 0.005) << est.dump();
  EXPECT_NEAR(est["sensor"]["period_s"].get<double>(), 0.004896, 0.00005) << est.dump();
  // The protocol's rule before it acts on the intervals: 20 readings beyond the unknowns. (Five
  // per unit, asked here before, is not its rule: a run that converged at its first check with
  // 4.6 per unit failed it, 1 run in 25 on the code before and after in_context became a class.)
  EXPECT_GE(est["readings"].get<int>(), est["units"].get<int>() + 20) << est.dump();
  // The residual blocks are resolved on their own.
  int own = 0;
  for (std::size_t i = 1; i <= 14; ++i) own += rows[i]["layer_resolution"] != "merged";
  EXPECT_GE(own, 6) << rows.dump(1);
  EXPECT_EQ(read_file(samples_file), "16\n");
}
#endif
