// A point's status from its rows: ok only with every main metric, else the state that says why.
#include <gtest/gtest.h>

#include <jetperf/store/cell_json.hpp>
#include <jetperf/jobs/point_outcome.hpp>

using namespace jetperf;
using nlohmann::json;

namespace {

// The rows written as JSON for reading; settled as the typed row they become.
std::string settle(const column_table& t, json& metrics) {
  row r = row_of(metrics);
  const auto status = jobs::settle_status(t, r);
  metrics = jetperf::to_json(r);
  return status;
}

column_table table(std::string row_list = {}) {
  return {{{"latency_mean_s", column_type::number, column_role::metric, "s", "", true, true},
           {"power_w", column_type::number, column_role::metric, "W", "", true, true},
           {"note", column_type::text, column_role::metric, "", "", false, false}},
          true,
          std::move(row_list)};
}

}  // namespace

TEST(point_outcome, a_row_with_every_main_metric_is_ok_and_one_without_says_why) {
  json full = {{"latency_mean_s", 0.1}, {"power_w", 7.0}, {"note", nullptr}};
  EXPECT_EQ(settle(table(), full), "ok");
  json no_power = {{"latency_mean_s", 0.1}, {"power_w", nullptr}};
  EXPECT_EQ(settle(table(), no_power), "no_power");
  json absent = {{"latency_mean_s", 0.1}};
  EXPECT_EQ(settle(table(), absent), "no_power");
  json no_time = {{"power_w", 7.0}};
  EXPECT_EQ(settle(table(), no_time), "incomplete");
}

// The in_context example: the network's row has its power, a layer's does not: the layer's row
// is unresolvable, the network's says ok, and the point is unresolvable.
TEST(point_outcome, each_item_of_a_row_list_is_judged_over_the_points_values) {
  json m = {{"latency_mean_s", 0.03},
            {"power_w", 7.9},
            {"layer_rows",
             {json::object(),
              {{"latency_mean_s", 0.002}, {"power_w", 8.1}, {"layer_resolution", "resolved"}},
              {{"latency_mean_s", 0.001}, {"power_w", nullptr}, {"layer_resolution", "unresolvable"}},
              {{"latency_mean_s", nullptr}, {"power_w", nullptr}, {"layer_resolution", "runs_nothing"}}}}};
  EXPECT_EQ(settle(table("layer_rows"), m), "unresolvable");
  const auto& rows = m["layer_rows"];
  EXPECT_EQ(rows[0]["status"], "ok");
  EXPECT_EQ(rows[1]["status"], "ok");
  EXPECT_EQ(rows[2]["status"], "unresolvable");
  EXPECT_EQ(rows[3]["status"], "ok");  // an alias runs nothing by design
  // Every row whole: the items are left as they were.
  json whole = {{"latency_mean_s", 0.03}, {"power_w", 7.9}, {"layer_rows", {json::object(), {{"power_w", 8.0}}}}};
  EXPECT_EQ(settle(table("layer_rows"), whole), "ok");
  EXPECT_FALSE(whole["layer_rows"][1].contains("status"));
  // A point whose own power is missing: every item, inheriting it, lacks it too.
  json stages = {{"latency_mean_s", 0.03}, {"power_w", nullptr}, {"layer_rows", {{{"note", "a"}}, {{"note", "b"}}}}};
  EXPECT_EQ(settle(table("layer_rows"), stages), "no_power");
  EXPECT_EQ(stages["layer_rows"][1]["status"], "no_power");
}

// A merged layer has no figure of its own: its group's row has it, so the layer is not missing
// power and the point stays ok; a group without its figure would be.
TEST(point_outcome, a_merged_layer_is_whole_through_its_group_row) {
  json m = {{"latency_mean_s", 0.03},
            {"power_w", 7.9},
            {"layer_rows",
             {json::object(),
              {{"latency_mean_s", 0.002}, {"power_w", nullptr}, {"layer_resolution", "merged"}},
              {{"latency_mean_s", 0.001}, {"power_w", nullptr}, {"layer_resolution", "merged"}},
              {{"latency_mean_s", 0.003}, {"power_w", 8.2}, {"layer_resolution", "group"}}}}};
  EXPECT_EQ(settle(table("layer_rows"), m), "ok");
  json lost = {{"latency_mean_s", 0.03},
               {"power_w", 7.9},
               {"layer_rows",
                {json::object(),
                 {{"latency_mean_s", 0.002}, {"power_w", nullptr}, {"layer_resolution", "merged"}},
                 {{"latency_mean_s", 0.003}, {"power_w", nullptr}, {"layer_resolution", "group"}}}}};
  EXPECT_EQ(settle(table("layer_rows"), lost), "no_power");
  EXPECT_EQ(lost["layer_rows"][1]["status"], "ok");
  EXPECT_EQ(lost["layer_rows"][2]["status"], "no_power");
}

// A row whose figures broke a physical bound (its implausible column, measure/row_bounds.hpp) is
// implausible; one that also lacks a main metric says that first.
TEST(point_outcome, a_row_holding_a_broken_bound_is_implausible) {
  json broken = {{"latency_mean_s", 0.1}, {"power_w", -7.0}, {"implausible", {{"power_negative", "power_w -7 W < 0 W"}}}};
  EXPECT_EQ(settle(table(), broken), "implausible");
  json both = {{"latency_mean_s", nullptr}, {"power_w", 7.0}, {"implausible", {{"energy_negative", "x"}}}};
  EXPECT_EQ(settle(table(), both), "incomplete");
  json empty = {{"latency_mean_s", 0.1}, {"power_w", 7.0}, {"implausible", json::object()}};
  EXPECT_EQ(settle(table(), empty), "ok");
}

// The sensor card's example: a channel of the card is implausible, the others ok, and the point
// says implausible; a point-wide bound shows on every row of it.
TEST(point_outcome, an_implausible_item_is_said_in_its_own_row_and_the_points) {
  json m = {{"latency_mean_s", 0.03},
            {"power_w", 7.9},
            {"channels",
             {{{"note", "VDD_IN"}},
              {{"note", "VDD_SYS_CPU"}, {"implausible", {{"sensor_period_off_chip", "update period 9.79 ms"}}}}}}};
  EXPECT_EQ(settle(table("channels"), m), "implausible");
  EXPECT_EQ(m["channels"][0]["status"], "ok");
  EXPECT_EQ(m["channels"][1]["status"], "implausible");
  json point_wide = {{"latency_mean_s", 0.03},
                     {"power_w", 7.9},
                     {"implausible", {{"layer_energy_sum_off_run", "x"}}},
                     {"layer_rows", {json::object(), {{"power_w", 1.0}}, {{"layer_resolution", "merged"}}}}};
  EXPECT_EQ(settle(table("layer_rows"), point_wide), "implausible");
  EXPECT_EQ(point_wide["layer_rows"][0]["status"], "implausible");
  EXPECT_EQ(point_wide["layer_rows"][1]["status"], "implausible");
  EXPECT_EQ(point_wide["layer_rows"][2]["status"], "ok");  // merged: no figure of its own
}
