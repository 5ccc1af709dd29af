// Each layer isolated beside in context: the ratio, and a flag only beyond the combined spread.
#include <gtest/gtest.h>

#include <jetperf/common/cell_json.hpp>
#include <jetperf/kinds/layers/in_context.hpp>
#include <jetperf/workloads/layer_backends.hpp>
#include <jetperf/models/zoo.hpp>

using namespace jetperf;
using nlohmann::json;

TEST(layers_in_context, flags_a_layer_only_beyond_the_combined_spread) {
  const json in_context = {{"0", {{"name", "conv1"}, {"median_s", 0.010}, {"p25_s", 0.0099}, {"p75_s", 0.0101}, {"runs", 9}}},
                           {"1", {{"name", "bn1"}, {"median_s", 0.002}, {"p25_s", 0.0019}, {"p75_s", 0.0021}, {"runs", 9}}}};
  const std::vector<json> isolated = {
      {{"layer_index", 0}, {"layer_name", "conv1"}, {"latency_median_s", 0.0102}, {"latency_std_s", 0.0002}},
      {{"layer_index", 1}, {"layer_name", "bn1"}, {"latency_median_s", 0.001}, {"latency_std_s", 0.0001}},
      {{"layer_index", 5}, {"layer_name", "absent"}, {"latency_median_s", 0.001}, {"latency_std_s", 0.0001}}};
  const auto out = kinds::compare_in_context(in_context, isolated);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0]["layer_name"], "conv1");
  EXPECT_NEAR(out[0]["isolated_over_in_context"].get<double>(), 1.02, 1e-12);
  EXPECT_FALSE(out[0]["disagrees"].get<bool>());  // 0.2 ms apart, spread ~0.2 ms
  EXPECT_NEAR(out[1]["isolated_over_in_context"].get<double>(), 0.5, 1e-12);
  EXPECT_TRUE(out[1]["disagrees"].get<bool>());   // 1 ms apart, spread ~0.2 ms
}

TEST(layers_in_context, every_layer_of_a_network_gets_its_time_in_context_and_its_runs_go_on_the_timeline) {
  auto be = workloads::make_reference_layer_backend();
  const auto net = models::build_model("squeezenet1_0");
  const auto layers = models::layers_of(net, models::granularity::block);
  be->prepare(net, models::whole_network(net), 1, workloads::gemm_dtype::single);
  std::vector<measure::timeline_span> spans;
  measure::point_context ctx;
  ctx.timeline = [&spans](measure::timeline_span s) { spans.push_back(std::move(s)); };
  const auto out = kinds::measure_in_context(ctx, *be, net, layers);
  std::size_t timed = 0;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    if (!out.contains(std::to_string(i))) continue;  // an alias-only layer runs nothing
    ++timed;
    const auto& l = out[std::to_string(i)];
    EXPECT_EQ(l["name"], layers[i].name);
    EXPECT_GE(l["runs"].get<int>(), static_cast<int>(kinds::k_in_context_min_runs));
    EXPECT_LE(l["p25_s"].get<double>(), l["median_s"].get<double>());
    EXPECT_LE(l["median_s"].get<double>(), l["p75_s"].get<double>());
    EXPECT_GT(l["median_s"].get<double>(), 0);
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
