// Each layer isolated beside in context: the ratio, and a flag only beyond the combined spread.
#include <gtest/gtest.h>

#include <jetperf/store/cell_json.hpp>
#include <jetperf/kinds/layers/in_context.hpp>
#include <jetperf/kinds/layers/in_context_rows.hpp>
#include <jetperf/kinds/layers/layers_columns.hpp>
#include <jetperf/measure/point_columns.hpp>
#include <jetperf/workloads/layer_backends.hpp>
#include <jetperf/models/zoo.hpp>

using namespace jetperf;
using nlohmann::json;

namespace {

row isolated_row(std::int64_t index, const char* name, double median_s, double std_s) {
  row r;
  r.set(kinds::layers::cols::layer_index, index);
  r.set(kinds::layers::cols::layer_name, name);
  r.set(kinds::layers::cols::latency_median_s, median_s);
  r.set(kinds::layers::cols::latency_std_s, std_s);
  return r;
}

}  // namespace

TEST(layers_in_context, flags_a_layer_only_beyond_the_combined_spread) {
  const record in_context{
      {"0", record{{"name", "conv1"}, {"median_s", 0.010}, {"p25_s", 0.0099}, {"p75_s", 0.0101}, {"runs", 9}}},
      {"1", record{{"name", "bn1"}, {"median_s", 0.002}, {"p25_s", 0.0019}, {"p75_s", 0.0021}, {"runs", 9}}}};
  const std::vector<row> isolated = {isolated_row(0, "conv1", 0.0102, 0.0002), isolated_row(1, "bn1", 0.001, 0.0001),
                                     isolated_row(5, "absent", 0.001, 0.0001)};
  const auto out = jetperf::to_json(cell(kinds::compare_in_context(in_context, isolated)));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0]["layer_name"], "conv1");
  EXPECT_NEAR(out[0]["isolated_over_in_context"].get<double>(), 1.02, 1e-12);
  EXPECT_FALSE(out[0]["disagrees"].get<bool>());  // 0.2 ms apart, spread ~0.2 ms
  EXPECT_NEAR(out[1]["isolated_over_in_context"].get<double>(), 0.5, 1e-12);
  EXPECT_TRUE(out[1]["disagrees"].get<bool>());   // 1 ms apart, spread ~0.2 ms
}

TEST(layers_in_context, flags_a_layer_whose_times_are_more_than_half_again_apart_however_noisy) {
  // Sub-millisecond ops at op granularity: each timing spreads as much as the two differ, yet one
  // ran twice as fast alone as inside the network (issue 55: 47 of 69 resnet18 ops so, none flagged).
  const record in_context{
      {"0", record{{"name", "relu"}, {"median_s", 0.0004}, {"p25_s", 0.0001}, {"p75_s", 0.0007}, {"runs", 9}}},
      {"1", record{{"name", "bn1"}, {"median_s", 0.0004}, {"p25_s", 0.0001}, {"p75_s", 0.0007}, {"runs", 9}}},
      {"2", record{{"name", "conv1"}, {"median_s", 0.0040}, {"p25_s", 0.0039}, {"p75_s", 0.0041}, {"runs", 9}}}};
  const std::vector<row> isolated = {isolated_row(0, "relu", 0.0002, 0.0004), isolated_row(1, "bn1", 0.00045, 0.0004),
                                     isolated_row(2, "conv1", 0.0065, 0.0015)};
  const auto out = jetperf::to_json(cell(kinds::compare_in_context(in_context, isolated)));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out[0]["disagrees"].get<bool>());   // 2x apart within a spread of 0.6 ms
  EXPECT_FALSE(out[1]["disagrees"].get<bool>());  // 1.12x apart
  EXPECT_TRUE(out[2]["disagrees"].get<bool>());   // 1.6x slower alone, within twice a 1.5 ms spread
}

TEST(layers_in_context, every_layer_of_a_network_gets_its_time_in_context_and_its_runs_go_on_the_timeline) {
  auto be = workloads::make_reference_layer_backend();
  const auto net = models::build_model("squeezenet1_0");
  const auto layers = models::layers_of(net, models::granularity::block);
  be->prepare(net, models::whole_network(net), 1, workloads::gemm_dtype::single);
  std::vector<measure::timeline_span> spans;
  measure::point_context ctx;
  ctx.timeline = [&spans](measure::timeline_span s) { spans.push_back(std::move(s)); };
  const record out = kinds::measure_in_context(ctx, *be, net, layers);
  std::size_t timed = 0;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const auto* entry = out.find(std::to_string(i));
    if (!entry) continue;  // an alias-only layer runs nothing
    ++timed;
    ASSERT_TRUE(entry->is_record());
    const auto& l = entry->as_record();
    EXPECT_EQ(l.at("name").as_string(), layers[i].name);
    ASSERT_TRUE(l.at("runs").is_integer());
    EXPECT_GE(*l.at("runs").integer(), static_cast<std::int64_t>(kinds::k_in_context_min_runs));
    ASSERT_TRUE(l.at("median_s").is_double());
    EXPECT_LE(*l.at("p25_s").number(), *l.at("median_s").number());
    EXPECT_LE(*l.at("median_s").number(), *l.at("p75_s").number());
    EXPECT_GT(*l.at("median_s").number(), 0);
  }
  EXPECT_GE(timed, layers.size() - 1);
  std::size_t ops = 0, layer_spans = 0;
  for (const auto& s : spans) {
    if (s.track == "ops") {
      ++ops;
      EXPECT_EQ(jetperf::to_json(s.args)["kernel"], "reference");
    }
    if (s.track == "layers") ++layer_spans;
  }
  EXPECT_EQ(ops, measure::k_in_context_traced_runs * net.ops.size());
  EXPECT_GE(layer_spans, kinds::k_in_context_min_runs * timed);
}

// Merged layers are reported once: each member names the others and has no figure of its own,
// and one group row carries the figure over the members' time together.
TEST(layers_in_context, a_merged_group_is_one_row_naming_its_members_and_its_members_have_no_figure) {
  measure::in_context_layer member;
  member.index = 1;
  member.name = "bn1";
  member.latency.count = 9;
  member.latency.mean_s = 0.002;
  member.resolution = measure::layer_resolution::merged;
  member.merged_with = "relu, maxpool";
  const auto m = kinds::in_context_layer_row(member);
  EXPECT_EQ(m.get(kinds::layers::cols::layer_resolution), std::string("merged"));
  EXPECT_EQ(m.get(kinds::layers::cols::merged_with), std::string("relu, maxpool"));
  EXPECT_FALSE(m.has(measure::cols::power_w));
  EXPECT_FALSE(m.has(measure::cols::energy_j));

  measure::in_context_group g;
  g.members = {1, 2, 3};
  g.name = "bn1 + relu + maxpool";
  g.members_text = "bn1, relu, maxpool";
  g.latency_mean_s = 0.004;
  g.power_w = 9.5;
  g.power_ci95_w = 0.2;
  g.energy_j = 0.038;
  g.energy_ci95_j = 0.0008;
  g.dynamic_power_w = 4.5;
  g.dynamic_energy_j = 0.018;
  g.readings = 40;
  const auto r = kinds::in_context_group_row(g);
  EXPECT_TRUE(r.has(kinds::layers::cols::layer_index));
  EXPECT_FALSE(r.get(kinds::layers::cols::layer_index));
  EXPECT_EQ(r.get(kinds::layers::cols::layer_name), std::string("bn1 + relu + maxpool"));
  EXPECT_EQ(r.get(kinds::layers::cols::layer_type), std::string("group"));
  EXPECT_EQ(r.get(kinds::layers::cols::layer_resolution), std::string("group"));
  EXPECT_EQ(r.get(kinds::layers::cols::merged_with), std::string("bn1, relu, maxpool"));
  EXPECT_EQ(r.get(kinds::layers::cols::latency_mean_s), 0.004);
  EXPECT_EQ(r.get(measure::cols::power_w), 9.5);
  EXPECT_EQ(r.get(measure::cols::energy_j), 0.038);
  EXPECT_EQ(r.get(kinds::layers::cols::power_ci95_w), 0.2);
  EXPECT_EQ(r.get(kinds::layers::cols::layer_readings), std::int64_t{40});
  EXPECT_FALSE(r.has(measure::cols::flags));
}
