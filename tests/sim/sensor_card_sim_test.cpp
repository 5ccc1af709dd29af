// The sensor card (the `sensor` kind) on every simulated board, through the real jetperfd: it
// must find the period and lag the rail simulator keeps (the profile's sensor_timing), the
// period within 0.1 ms and the lag within 1 ms, in under a minute, on its total-power channel.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <jetperf/sim/board_profile.hpp>

#include "backbone_helpers.hpp"

namespace jetperf::test {
namespace {

using nlohmann::json;

// The row of the board's total power, the channel every card has: the computed sum where the
// board has no input rail (AGX Orin, AGX Xavier), else the rail whose role is the total (TX2's
// VDD_IN, Thor's VIN), as /v1/board names them.
json total_row(const json& rows, const json& board) {
  std::string total = "power.total";
  if (board["rails"].is_array())
    for (const auto& r : board["rails"])
      if (r.value("role", std::string()) == "total") total = "rail." + r.value("name", std::string());
  for (const auto& r : rows)
    if (r.value("channel", std::string()) == total) return r;
  return json();
}

// One card on `profile`'s simulated board: the job's total-power row checked for what the card
// must always give, the board's view and a later job's provenance carrying it. Returns the row.
json card_on(const sim::board_profile& profile) {
  temp_dir dir;
  daemon_process daemon({"--board", "sim:" + profile.name, "--sim-dir", dir.path()});
  http_client http(daemon.port(), std::chrono::seconds(30));
  const auto started = std::chrono::steady_clock::now();
  const auto submitted =
      http.request("POST", "/v1/jobs", json{{"kind", "sensor"}, {"spec", json::object()}}.dump(), bearer(daemon.token()));
  EXPECT_EQ(submitted.status, 201) << submitted.body;
  if (submitted.status != 201) return json();
  const auto id = json_of(submitted)["id"].get<std::int64_t>();
  EXPECT_EQ(wait_state(http, id, {"succeeded", "partial", "failed"}, std::chrono::seconds(90)), "succeeded")
      << daemon.log() << http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results").body;
  const double took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_LT(took_s, 60.0);

  const auto results = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results"));
  const auto board = json_of(http.request("GET", "/v1/board"));
  const auto total = total_row(results["rows"], board);
  EXPECT_TRUE(total.is_object()) << results.dump(1) << board["rails"].dump(1);
  if (!total.is_object()) return json();
  EXPECT_LT(total["card_s"].get<double>(), 60.0);
  // The simulator's files hold a value until the next update, as the INA3221's register does.
  EXPECT_EQ(total["cached"], true) << total.dump(1);
  EXPECT_GT(total["resolution_mw"].get<double>(), 0.0);
  // The board shows its latest card, fresh; a later job carries it in its provenance.
  EXPECT_TRUE(board["sensor_card"].is_object()) << board.dump(1);
  EXPECT_EQ(board["sensor_card"]["job_id"], id);
  EXPECT_EQ(board["sensor_card"]["stale"], false) << board["sensor_card"].dump(1);
  EXPECT_GE(board["sensor_card"]["age_s"].get<double>(), 0.0);
  const auto idle = submit_idle(http, daemon.token(), 0.05, 1);
  EXPECT_EQ(wait_state(http, idle, {"succeeded", "partial", "failed"}, std::chrono::seconds(30)), "succeeded");
  const auto prov = json_of(http.request("GET", "/v1/jobs/" + std::to_string(idle)))["provenance"];
  EXPECT_EQ(prov["sensor_card"]["job_id"], id) << prov.dump(1);
  if (total["update_period_ms"].is_number() && total["lag_ms"].is_number())
    std::printf("[ card ] %s: period %.4f ms (configured %.4f), lag %.3f ms (configured %.3f), window %.3f ms, card %.1f s, "
                "job %.1f s\n",
                profile.name.c_str(), total["update_period_ms"].get<double>(), profile.sensor.period_us / 1e3,
                total["lag_ms"].get<double>(), profile.sensor.lag_s() * 1e3, total["window_ms"].get<double>(),
                total["card_s"].get<double>(), took_s);
  return total;
}

class sensor_card_sim : public ::testing::TestWithParam<std::string> {};

// Issue 38 item 4's done-when: on every simulated board the card finds the period the rail
// simulator keeps within 0.1 ms and its lag within 1 ms, in under a minute (card_on), and its
// window near the simulator's (a window of 28.9 ms against 19.6, as the card once found on
// orin-agx, was the load thread's own polling counted as load in the idle halves only).
TEST_P(sensor_card_sim, finds_the_simulators_period_and_lag_within_a_minute) {
  const auto& profile = sim::find_profile(GetParam());
  const auto total = card_on(profile);
  ASSERT_TRUE(total["update_period_ms"].is_number()) << total.dump(1);
  ASSERT_TRUE(total["lag_ms"].is_number()) << total.dump(1);
  EXPECT_NEAR(total["update_period_ms"].get<double>(), static_cast<double>(profile.sensor.period_us) / 1e3, 0.1)
      << total.dump(1);
  EXPECT_NEAR(total["lag_ms"].get<double>(), profile.sensor.lag_s() * 1e3, 1.0) << total.dump(1);
  EXPECT_NEAR(total["window_ms"].get<double>(), profile.sensor.window_s() * 1e3, 3.0) << total.dump(1);
}

std::vector<std::string> profile_names() {
  std::vector<std::string> names;
  for (const auto& p : sim::board_profiles()) names.push_back(p.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(every_board, sensor_card_sim, ::testing::ValuesIn(profile_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace jetperf::test
