// attribute_energy on a synthetic power step: exact energies per op, per top-level op and per
// kernel; the uncertainty grows with the step near an interval's ends and with the alignment's
// uncertainty; short intervals and intervals outside the samples are counted.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <jetperf/traces/op_energy.hpp>
#include <jetperf/traces/trace_reader.hpp>

namespace jetperf::traces {
namespace {

using nlohmann::json;

constexpr std::int64_t k_ms = 1'000'000;

json event(const std::string& name, double ts_us, double dur_us, const std::string& cat) {
  return {{"ph", "X"}, {"cat", cat}, {"name", name}, {"pid", 1}, {"tid", 1}, {"ts", ts_us}, {"dur", dur_us}};
}

// 10 W until 500 ms, then 20 W, sampled every 10 ms from 0 to 1000 ms (the step between the
// samples at 500 and 510 ms); a rail at 3 W throughout.
power_inputs step_power() {
  power_inputs p;
  p.total.emplace();
  for (std::int64_t t = 0; t <= 1000 * k_ms; t += 10 * k_ms) {
    p.total->emplace_back(t, t <= 500 * k_ms ? 10.0 : 20.0);
    p.rails["VDD_GPU"].emplace_back(t, 3.0);
  }
  p.sensor_period_ns = 10 * k_ms;
  return p;
}

const energy_row& row(const std::vector<energy_row>& rows, const std::string& name) {
  for (const auto& r : rows)
    if (r.name == name) return r;
  throw std::runtime_error("no row " + name);
}

TEST(op_energy, a_power_step_gives_exact_energies_per_op_top_level_op_and_kernel) {
  // Trace times are 100 ms behind the daemon's.
  const auto t = parse_trace(json{{"traceEvents",
                                   {event("forward", 0, 300000, "cpu_op"),           // daemon 100..400 ms: 10 W
                                    event("aten::mm", 100000, 100000, "cpu_op"),     // 200..300 ms inside forward
                                    event("forward", 600000, 200000, "cpu_op"),      // 700..900 ms: 20 W
                                    event("gemm_kernel", 700000, 50000, "kernel"),   // 800..850 ms
                                    event("gemm_kernel", 150000, 50000, "kernel")}}}  // 250..300 ms
                                     .dump());
  alignment a;
  a.offset_ns = 100 * k_ms;
  a.uncertainty_ns = 0;
  const auto table = attribute_energy(t, build_op_tree(t), a, step_power());
  const auto& fwd = row(table.ops, "forward");
  EXPECT_EQ(fwd.count, 2u);
  EXPECT_DOUBLE_EQ(fwd.time_s, 0.5);
  EXPECT_NEAR(*fwd.energy_j, 0.3 * 10 + 0.2 * 20, 1e-9);
  EXPECT_NEAR(*fwd.power_w, 7.0 / 0.5, 1e-9);
  EXPECT_NEAR(fwd.rail_energy_j.at("VDD_GPU"), 1.5, 1e-9);
  EXPECT_NEAR(*row(table.ops, "aten::mm").energy_j, 1.0, 1e-9);
  ASSERT_EQ(table.top_level.size(), 1u);  // aten::mm is inside forward
  EXPECT_NEAR(*table.top_level[0].energy_j, 7.0, 1e-9);
  const auto& k = row(table.kernels, "gemm_kernel");
  EXPECT_EQ(k.count, 2u);
  EXPECT_NEAR(*k.energy_j, 0.05 * 20 + 0.05 * 10, 1e-9);
  // Flat power around every end and a perfect alignment: nothing uncertain.
  EXPECT_NEAR(*fwd.uncertainty_j, 0.0, 1e-12);
  EXPECT_EQ(fwd.short_intervals, 0u);
  EXPECT_EQ(fwd.outside_samples, 0u);
  EXPECT_EQ(table.sensor_period_ns, 10 * k_ms);
  EXPECT_EQ(table.ops.front().name, "forward");  // largest energy first
}

TEST(op_energy, the_uncertainty_follows_the_step_near_an_end_and_the_alignment) {
  // One op from 200 to 505 ms: it ends in the middle of the ramp from 10 to 20 W.
  const auto t = parse_trace(json{{"traceEvents", {event("op", 200000, 305000, "cpu_op"),
                                                   event("tiny", 100000, 2000, "cpu_op"),     // 2 ms < 10 ms period
                                                   event("late", 2000000, 1000, "cpu_op")}}}  // past the samples
                                     .dump());
  alignment a;
  a.offset_ns = 0;
  a.uncertainty_ns = 0;
  const auto exact = attribute_energy(t, build_op_tree(t), a, step_power());
  const auto& op = row(exact.ops, "op");
  // Its end lies within a period of the step: up to half the swing (10 W) x the period (10 ms).
  EXPECT_NEAR(*op.uncertainty_j, 10.0 * 0.01 / 2, 1e-9);
  // Within 0.3 s + the ramp's first half: 0.3 x 10 + 0.005 x 12.5.
  EXPECT_NEAR(*op.energy_j, 3.0 + 0.005 * 12.5, 1e-9);
  EXPECT_EQ(row(exact.ops, "tiny").short_intervals, 1u);
  EXPECT_EQ(row(exact.ops, "late").outside_samples, 1u);
  EXPECT_NEAR(*row(exact.ops, "late").energy_j, 20.0 * 0.001, 1e-12);  // held at the last sample

  a.uncertainty_ns = 1 * k_ms;
  const auto shifted = attribute_energy(t, build_op_tree(t), a, step_power());
  // P(end) - P(start) = 15 - 10 W: a 1 ms shift moves 5 mJ more.
  EXPECT_NEAR(*row(shifted.ops, "op").uncertainty_j, 0.05 + 5.0 * 0.001, 1e-9);
}

TEST(op_energy, self_energies_are_inclusive_less_children_and_add_up_to_the_top_level_energy) {
  // forward [100, 400] ms holds aten::mm [200, 300] and aten::relu [320, 340]; a second
  // forward [700, 900] holds nothing; a kernel has no self figures.
  const auto t = parse_trace(json{{"traceEvents",
                                   {event("forward", 100000, 300000, "cpu_op"), event("aten::mm", 200000, 100000, "cpu_op"),
                                    event("aten::relu", 320000, 20000, "cpu_op"), event("forward", 700000, 200000, "cpu_op"),
                                    event("gemm_kernel", 250000, 10000, "kernel")}}}
                                     .dump());
  alignment a;
  a.uncertainty_ns = 0;
  const auto table = attribute_energy(t, build_op_tree(t), a, step_power());
  const auto& fwd = row(table.ops, "forward");
  EXPECT_NEAR(*fwd.self_time_s, 0.3 - 0.1 - 0.02 + 0.2, 1e-12);
  // 10 W until 500 ms, then 20 W: the first forward's own 0.18 s at 10 W, the second's 0.2 s at 20 W.
  EXPECT_NEAR(*fwd.self_energy_j, 0.18 * 10 + 0.2 * 20, 1e-9);
  EXPECT_NEAR(*row(table.ops, "aten::mm").self_energy_j, 1.0, 1e-9);
  double self_sum = 0, top_sum = 0;
  for (const auto& r : table.ops) self_sum += r.self_energy_j.value_or(0);
  for (const auto& r : table.top_level) top_sum += *r.energy_j;
  EXPECT_NEAR(self_sum, top_sum, 1e-9);
  EXPECT_NEAR(top_sum, 0.3 * 10 + 0.2 * 20, 1e-9);
  EXPECT_FALSE(table.top_level[0].self_energy_j);
  EXPECT_FALSE(table.kernels[0].self_time_s);
}

TEST(op_energy, record_function_labels_are_rows_marked_as_labels) {
  const auto t = parse_trace(json{{"traceEvents",
                                   {event("train_step", 0, 1000, "user_annotation"), event("aten::mm", 100, 100, "cpu_op")}}}
                                     .dump());
  const auto table = attribute_energy(t, build_op_tree(t), alignment{}, power_inputs{});
  EXPECT_TRUE(row(table.ops, "train_step").label);
  EXPECT_FALSE(row(table.ops, "aten::mm").label);
}

TEST(op_energy, without_power_rows_keep_their_times_and_no_energy) {
  const auto t = parse_trace(json{{"traceEvents", {event("op", 0, 1000, "cpu_op")}}}.dump());
  const auto table = attribute_energy(t, build_op_tree(t), alignment{}, power_inputs{});
  ASSERT_EQ(table.ops.size(), 1u);
  EXPECT_DOUBLE_EQ(table.ops[0].time_s, 0.001);
  EXPECT_FALSE(table.ops[0].energy_j);
  EXPECT_FALSE(table.ops[0].uncertainty_j);
}

TEST(op_energy, past_max_rows_the_smallest_names_fold_into_one_row_whose_sums_are_theirs) {
  // Five ops of 100..500 us at 10 W (the step comes later): each a name of its own.
  json events = json::array();
  for (int i = 1; i <= 5; ++i) events.push_back(event("op" + std::to_string(i), 1000.0 * i, 100.0 * i, "cpu_op"));
  const auto t = parse_trace(json{{"traceEvents", events}}.dump());
  alignment a;
  a.uncertainty_ns = 0;
  const auto table = attribute_energy(t, build_op_tree(t), a, step_power(), 2);
  ASSERT_EQ(table.ops.size(), 3u);
  EXPECT_EQ(table.ops[0].name, "op5");
  EXPECT_EQ(table.ops[1].name, "op4");
  EXPECT_EQ(table.ops[0].folded_names, 0u);
  const auto& rest = table.ops[2];
  EXPECT_EQ(rest.name, "(3 other names)");
  EXPECT_EQ(rest.folded_names, 3u);
  EXPECT_EQ(rest.count, 3u);
  EXPECT_NEAR(rest.time_s, 600e-6, 1e-12);
  EXPECT_NEAR(*rest.energy_j, 10 * 600e-6, 1e-12);
  EXPECT_NEAR(rest.rail_energy_j.at("VDD_GPU"), 3 * 600e-6, 1e-12);
  // One name more than max_rows is kept as it is: a folded row of one name says less.
  EXPECT_EQ(attribute_energy(t, build_op_tree(t), a, step_power(), 4).ops.back().folded_names, 0u);
  EXPECT_EQ(attribute_energy(t, build_op_tree(t), a, step_power(), 4).ops.size(), 5u);
}

TEST(op_energy, a_rail_without_samples_stays_out_of_the_rows_rail_energies) {
  auto power = step_power();
  power.rails["VDD_CPU"] = {};
  const auto t = parse_trace(json{{"traceEvents", {event("op", 1000, 100, "cpu_op")}}}.dump());
  const auto table = attribute_energy(t, build_op_tree(t), alignment{}, power);
  ASSERT_EQ(table.ops.size(), 1u);
  EXPECT_EQ(table.ops[0].rail_energy_j.count("VDD_CPU"), 0u);
  EXPECT_EQ(table.ops[0].rail_energy_j.count("VDD_GPU"), 1u);
}

}  // namespace
}  // namespace jetperf::traces
