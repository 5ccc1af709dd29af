// The per-op totals of real PyTorch profiles (tests/fixtures/traces, made by make_traces.py)
// against what torch.profiler's key_averages() reported for the same profile: every key, count
// exactly, CPU total and self CPU time within 1%.
#include <cmath>
#include <iostream>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <jetperf/traces/trace_analysis.hpp>
#include <jetperf/traces/trace_reader.hpp>
#include <support/fixtures.hpp>

namespace jetperf::traces {
namespace {

// |got - want| within 1% of want (and of 1 ns, for keys whose time is 0).
::testing::AssertionResult within_1pct(double got, double want) {
  if (std::fabs(got - want) <= 0.01 * std::fabs(want) + 1e-3) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << got << " vs " << want << " (" << 100 * (got - want) / want << "%)";
}

void check_fixture(const std::string& name) {
  JETPERF_LOAD_FIXTURE(averages_text, "traces/" + name + "_key_averages.json");
  const trace t = read_trace_file(test::fixtures_dir() + "/traces/" + name + ".json");
  const trace_breakdown b = analyze_trace(t);
  std::map<std::string, const op_total*> ours;
  for (const auto& op : b.ops) ours[op.key] = &op;

  const auto averages = nlohmann::json::parse(averages_text);
  ASSERT_GT(averages.at("keys").size(), 20u);
  EXPECT_EQ(ours.size(), averages.at("keys").size()) << "keys in the trace vs in key_averages()";
  double worst = 0;
  for (const auto& k : averages.at("keys")) {
    const std::string key = k.at("key");
    SCOPED_TRACE(name + " " + key);
    const auto it = ours.find(key);
    ASSERT_NE(it, ours.end()) << "key_averages() has " << key << ", the analysis does not";
    const op_total& op = *it->second;
    EXPECT_EQ(op.count, k.at("count").get<std::size_t>());
    const double cpu = k.at("cpu_time_total").get<double>(), self = k.at("self_cpu_time_total").get<double>();
    EXPECT_TRUE(within_1pct(op.cpu_total_us, cpu));
    EXPECT_TRUE(within_1pct(op.self_cpu_us, self));
    if (cpu > 0) worst = std::max(worst, std::fabs(op.cpu_total_us - cpu) / cpu);
    if (self > 0) worst = std::max(worst, std::fabs(op.self_cpu_us - self) / self);
  }
  std::cout << name << ": " << averages.at("keys").size() << " keys, worst difference " << 100 * worst << "%\n";
}

TEST(fixture_totals, cnn_matches_key_averages) { check_fixture("cnn_cpu"); }
TEST(fixture_totals, dlrm_matches_key_averages) { check_fixture("dlrm_cpu"); }

TEST(fixture_totals, the_profiled_steps_are_the_iterations) {
  const trace t = read_trace_file(test::fixtures_dir() + "/traces/dlrm_cpu.json");
  analysis_options o;
  o.batch_size = 16;
  const trace_breakdown b = analyze_trace(t, o);
  // make_traces.py: schedule(wait=1, warmup=1, active=3): three steps are recorded (this torch numbers them from 1).
  ASSERT_EQ(b.iterations.size(), 3u);
  EXPECT_EQ(b.iterations[0].name, "ProfilerStep#1");
  EXPECT_EQ(b.iterations[2].name, "ProfilerStep#3");
  const double span = b.iterations[2].start_us + b.iterations[2].duration_us - b.iterations[0].start_us;
  EXPECT_DOUBLE_EQ(b.host_runtime_us, span);
  ASSERT_TRUE(b.qps.has_value());
  EXPECT_DOUBLE_EQ(*b.qps, 16.0 * 3 / (span / 1e6));
  // The DLRM's labels are not ops: the seed's ops under them are aten calls and the optimizer's.
  EXPECT_GT(b.overheads.ops, 50u);
  EXPECT_GT(b.overheads.t1.count, 10u);
  EXPECT_TRUE(b.overheads.t5.count("aten::embedding_bag") || b.overheads.t5.count("aten::bmm"));
  EXPECT_TRUE(b.overheads.t2.empty());  // a CPU-only profile launches nothing
}

}  // namespace
}  // namespace jetperf::traces
