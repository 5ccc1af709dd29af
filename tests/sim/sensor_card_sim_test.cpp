// The sensor card (the `sensor` kind) on every simulated board, through the real jetperfd: it
// must find the period and lag the rail simulator keeps (the profile's sensor_timing), the
// period within 0.1 ms and the lag within 1 ms, in under a minute, on its total-power channel.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <jetperf/measure/physical_bounds.hpp>
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

// The chip of each rail, as the profile wires them: a rail's label -> its INA3221's address.
std::map<std::string, std::string> chips_of(const sim::board_profile& profile) {
  std::map<std::string, std::string> out;
  for (const auto& chip : profile.ina)
    for (const auto& c : chip.channels)
      if (c.label != "NC") out["rail." + c.label] = chip.bus_addr;
  return out;
}

// The bounds a channel row's figures break, judged here from the row and its chip's other rows
// (measure/physical_bounds.hpp's limits, the chip from the profile): what the card must flag.
std::set<std::string> impossible_in(const json& row, const json& rows, const std::map<std::string, std::string>& chips) {
  std::set<std::string> out;
  if (!row["update_period_ms"].is_number()) return out;
  const double period = row["update_period_ms"].get<double>();
  if (row["delay_ms"].is_number() && row["delay_ms"].get<double>() < -measure::k_delay_slack_periods * period)
    out.insert("sensor_delay_negative");
  if (row["window_ms"].is_number() && row["window_ms"].get<double>() > 2 * period * (1 + measure::k_window_slack))
    out.insert("sensor_window_too_long");
  const auto chip = chips.find(row.value("channel", std::string()));
  if (chip == chips.end()) return out;
  std::vector<double> periods;
  for (const auto& r : rows) {
    const auto other = chips.find(r.value("channel", std::string()));
    if (other != chips.end() && other->second == chip->second && r["update_period_ms"].is_number())
      periods.push_back(r["update_period_ms"].get<double>());
  }
  std::sort(periods.begin(), periods.end());
  const auto mid = periods.size() / 2;
  const double median = periods.size() % 2 ? periods[mid] : (periods[mid - 1] + periods[mid]) / 2;
  if (periods.size() >= 2 && std::abs(period - median) > measure::k_chip_period_tolerance * median)
    out.insert("sensor_period_off_chip");
  return out;
}

class sensor_card_bounds_sim : public ::testing::TestWithParam<std::string> {};

// Issue 56's done-when: the card reported tx2's VDD_SYS_CPU updating at half its chip's period,
// orin-agx's VIN_SYS_5V0 and xavier-agx's SYS5V with negative delays, all as ok. Whatever the card
// measures on these boards, no channel shows an impossible figure as ok: each channel whose
// figures break a bound is implausible, naming exactly the bounds broken, every other one is ok,
// and the job is not succeeded (its card not the board's) exactly when one is implausible. It holds while
// the card's figures are wrong (flagged) and once they are right (ok).
TEST_P(sensor_card_bounds_sim, no_channel_reports_an_impossible_figure_as_ok) {
  const auto& profile = sim::find_profile(GetParam());
  temp_dir dir;
  daemon_process daemon({"--board", "sim:" + profile.name, "--sim-dir", dir.path()});
  http_client http(daemon.port(), std::chrono::seconds(30));
  const auto submitted =
      http.request("POST", "/v1/jobs", json{{"kind", "sensor"}, {"spec", {{"loads", {"cpu"}}}}}.dump(), bearer(daemon.token()));
  ASSERT_EQ(submitted.status, 201) << submitted.body;
  const auto id = json_of(submitted)["id"].get<std::int64_t>();
  const auto state = wait_state(http, id, {"succeeded", "partial", "failed"}, std::chrono::seconds(90));
  const auto results = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id) + "/results"));
  const auto& rows = results["rows"];
  ASSERT_TRUE(rows.is_array() && !rows.empty()) << results.dump(1);
  const auto chips = chips_of(profile);
  std::size_t implausible = 0;
  for (const auto& row : rows) {
    const auto broken = impossible_in(row, rows, chips);
    std::set<std::string> named;
    if (row["implausible"].is_object())
      for (const auto& b : row["implausible"].items()) named.insert(b.key());
    EXPECT_EQ(named, broken) << row.dump(1);
    EXPECT_EQ(row["status"], broken.empty() ? "ok" : "implausible") << row.dump(1);
    implausible += broken.empty() ? 0 : 1;
    std::printf("[ bounds ] %s %s: period %s ms, window %s ms, delay %s ms: %s\n", profile.name.c_str(),
                row.value("channel", std::string()).c_str(), row["update_period_ms"].dump().c_str(),
                row["window_ms"].dump().c_str(), row["delay_ms"].dump().c_str(), row["status"].dump().c_str());
  }
  // One point, the CPU's wave: implausible, no point is ok and the job failed (it says why).
  EXPECT_EQ(state, implausible ? "failed" : "succeeded") << daemon.log();
  const auto job = json_of(http.request("GET", "/v1/jobs/" + std::to_string(id)));
  if (implausible) {
    EXPECT_EQ(job["summary"]["points"]["implausible"], 1) << job["summary"].dump(1);
    // An implausible card is not the board's.
    const auto board = json_of(http.request("GET", "/v1/board"));
    EXPECT_TRUE(board["sensor_card"].is_null()) << board["sensor_card"].dump(1);
  }
}

INSTANTIATE_TEST_SUITE_P(issue_56_boards, sensor_card_bounds_sim, ::testing::Values("tx2", "orin-agx", "xavier-agx"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

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
