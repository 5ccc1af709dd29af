// The bounds applied to a point's rows by their declared columns: each broken bound lands in the
// row's implausible column (an item's in its own), a plausible row gets none.
#include <jetperf/measure/row_bounds.hpp>

#include <gtest/gtest.h>

#include <jetperf/measure/point_columns.hpp>

using namespace jetperf;
using namespace jetperf::measure;

namespace {

column_table table_with_power(std::string row_list = {}) {
  return {join_columns({power_columns(), setting_columns(false), window_columns()}), true, std::move(row_list)};
}

// A gemm-like row on a TX2-like board: total 10 W from VDD_IN, its sub-rails below it.
row plausible_row() {
  row r;
  r.set(cols::power_w, 10.0);
  r.set(cols::idle_power_w, 4.0);
  r.set(cols::energy_j, 0.01);
  r.set(cols::window_energy_j, 20.0);
  r.set(cols::dynamic_power_w, -0.2);  // a difference: may fall below zero within its noise
  r.set(cols::dynamic_energy_j, -0.0002);
  r.put("rail_VDD_IN_w", 10.0);
  r.put("rail_VDD_SYS_GPU_w", 4.0);
  r.put("rail_VDD_SYS_CPU_w", 2.0);
  r.put("gpu_freq_hz", std::int64_t{1300500000});
  return r;
}

row_limits tx2_limits() {
  row_limits l;
  l.clocks.gpu_freqs_hz = {114750000, 1300500000};
  l.input_rail = "VDD_IN";
  return l;
}

std::vector<std::string> keys_of(const row& r) {
  std::vector<std::string> out;
  if (const auto b = r.get(cols::implausible))
    for (const auto& e : *b) out.push_back(e.first);
  return out;
}

using strings = std::vector<std::string>;

}  // namespace

TEST(row_bounds, a_plausible_row_breaks_nothing_and_gets_no_implausible_column) {
  auto r = plausible_row();
  apply_physical_bounds(r, table_with_power(), tx2_limits());
  EXPECT_FALSE(r.has(cols::implausible));
  EXPECT_FALSE(is_implausible(r));
}

TEST(row_bounds, each_broken_bound_of_a_row_is_named_with_its_figure) {
  auto r = plausible_row();
  r.set(cols::energy_j, -0.01);
  r.set(cols::idle_power_w, -1.0);
  r.put("rail_VDD_SYS_GPU_w", 12.0);    // above VDD_IN, and with the CPU above it together
  r.put("gpu_freq_hz", std::int64_t{1600000000});  // past the highest step offered
  apply_physical_bounds(r, table_with_power(), tx2_limits());
  ASSERT_TRUE(is_implausible(r));
  EXPECT_EQ(keys_of(r), (strings{"power_negative", "energy_negative", "rail_above_total", "rails_above_input",
                                 "clock_outside_offered"}));
  const auto b = *r.get(cols::implausible);
  EXPECT_EQ(b.at("rail_above_total").as_string(), "rail_VDD_SYS_GPU_w 12 W > 11.5 W (power_w)");
  EXPECT_EQ(b.at("energy_negative").as_string(), "energy_j -0.01 J < 0 J");
  EXPECT_EQ(b.at("clock_outside_offered").as_string(), "gpu_freq_hz 1600000000 Hz > 1300500000 Hz (the highest step offered)");
}

TEST(row_bounds, two_figures_breaking_one_bound_are_both_said) {
  auto r = plausible_row();
  r.put("rail_VDD_SYS_GPU_w", -0.5);
  r.put("rail_VDD_SYS_CPU_w", -0.3);
  put_implausible(r, check_row(r, table_with_power().columns, tx2_limits()));
  EXPECT_EQ(r.get(cols::implausible)->at("power_negative").as_string(),
            "rail_VDD_SYS_GPU_w -0.5 W < -0.1 W; rail_VDD_SYS_CPU_w -0.3 W < -0.1 W");
}

TEST(row_bounds, items_of_a_row_list_are_checked_on_their_own_values) {
  auto r = plausible_row();
  row bad;
  bad.set(cols::power_w, -0.7);  // an in_context layer's power
  row good;
  good.set(cols::power_w, 0.7);
  r.set(cols::flags, std::vector<std::string>{});
  r.put("layer_rows", cell_list{record(), good.cells(), bad.cells()});
  apply_physical_bounds(r, table_with_power("layer_rows"), tx2_limits());
  EXPECT_FALSE(is_implausible(r));
  const auto& items = r.find("layer_rows")->as_list();
  EXPECT_FALSE(items[0].as_record().contains("implausible"));
  EXPECT_FALSE(items[1].as_record().contains("implausible"));
  EXPECT_EQ(keys_of(row(items[2].as_record())), (strings{"power_negative"}));
}

TEST(row_bounds, an_item_with_bounds_of_its_own_keeps_the_points_too) {
  auto r = plausible_row();
  r.set(cols::energy_j, -1.0);
  row bad;
  bad.set(cols::power_w, -0.7);
  r.put("layer_rows", cell_list{bad.cells()});
  apply_physical_bounds(r, table_with_power("layer_rows"), tx2_limits());
  EXPECT_EQ(keys_of(r), (strings{"energy_negative"}));
  EXPECT_EQ(keys_of(row(r.find("layer_rows")->as_list()[0].as_record())), (strings{"energy_negative", "power_negative"}));
}

TEST(row_bounds, the_input_rail_comes_from_the_telemetrys_total_channel) {
  struct source final : telemetry::sample_source {
    std::string total;
    std::vector<telemetry::channel_info> channels() const override {
      return {{"rail.VDD_GPU_SOC", "W", telemetry::channel_kind::power, ""}, {total, "W", telemetry::channel_kind::power, ""}};
    }
    std::vector<telemetry::sample> window(std::int64_t, std::int64_t) const override { return {}; }
    std::optional<int> total_power_channel() const override { return 1; }
    double update_period_s() const override { return 0.02; }
  } s;
  point_context ctx;
  ctx.telemetry = &s;
  s.total = "rail.VDD_IN";
  EXPECT_EQ(limits_of(ctx).input_rail, std::optional<std::string>("VDD_IN"));
  s.total = "power.total";  // AGX Orin: a computed sum
  EXPECT_FALSE(limits_of(ctx).input_rail);
  EXPECT_TRUE(limits_of(point_context{}).clocks.gpu_freqs_hz.empty());
}
