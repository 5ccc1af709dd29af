// Iterations from the step labels profilers write, and record_function labels that are never
// ops, on a real PyTorch profile: tests/fixtures/traces/dlrm_iterations_*.json (make_iteration_
// traces.py: ten iterations of a DLRM-like model labelled "## iteration N ##", batch 128, with
// "forward" and "backward" ranges inside; one profile written in the legacy form and, from the
// same events, in Kineto's). The truth is read from the fixture's JSON here, not through the
// code under test.
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <jetperf/common/errors.hpp>
#include <jetperf/traces/iterations.hpp>
#include <jetperf/traces/op_tree.hpp>
#include <jetperf/traces/record_function_labels.hpp>
#include <jetperf/traces/trace_analysis.hpp>
#include <jetperf/traces/trace_reader.hpp>
#include <support/fixtures.hpp>
#include <support/gpu_trace.hpp>

namespace jetperf::traces {
namespace {

using nlohmann::json;

constexpr long k_batch = 128;  // make_iteration_traces.py's BATCH (PROVENANCE.md)
const char* const k_legacy = "traces/dlrm_iterations_legacy.json";
const char* const k_kineto = "traces/dlrm_iterations_kineto_form.json";

const json& events_of(const json& doc) { return doc.is_array() ? doc : doc.at("traceEvents"); }

// What the trace itself says: its "## iteration N ##" events, and QPS = iterations x batch /
// (last one's end - first one's start).
struct truth {
  std::size_t iterations = 0;
  double qps = 0;
};

truth truth_of(const std::string& fixture) {
  const json doc = json::parse(::jetperf::test::fixture_text(fixture));
  static const std::regex label(R"(^## iteration \d+ ##$)");
  truth t;
  double first = INFINITY, last = -INFINITY;
  for (const auto& e : events_of(doc)) {
    if (!std::regex_match(e.at("name").get<std::string>(), label)) continue;
    ++t.iterations;
    first = std::min(first, e.at("ts").get<double>());
    last = std::max(last, e.at("ts").get<double>() + e.at("dur").get<double>());
  }
  t.qps = static_cast<double>(t.iterations) * k_batch / ((last - first) * 1e-6);
  return t;
}

trace_breakdown analyzed(const std::string& fixture, const std::string& label = "") {
  analysis_options o;
  o.batch_size = k_batch;
  o.iteration_label = label;
  return analyze_trace(read_trace_file(::jetperf::test::fixtures_dir() + "/" + fixture), o);
}

TEST(iteration_labels, the_dlrm_steps_are_found_with_their_qps_in_both_forms) {
  for (const char* fixture : {k_kineto, k_legacy}) {
    SCOPED_TRACE(fixture);
    const truth want = truth_of(fixture);
    ASSERT_EQ(want.iterations, 10u);
    const trace_breakdown b = analyzed(fixture);
    EXPECT_EQ(b.iteration_source, "## iteration * ##");
    ASSERT_EQ(b.iterations.size(), 10u);
    EXPECT_EQ(b.iterations.front().name, "## iteration 0 ##");
    EXPECT_EQ(b.iterations.back().name, "## iteration 9 ##");
    ASSERT_TRUE(b.qps.has_value());
    EXPECT_NEAR(*b.qps, want.qps, 0.01 * want.qps);
  }
}

TEST(iteration_labels, a_given_pattern_selects_the_steps) {
  EXPECT_EQ(analyzed(k_legacy, "## iteration ? ##").iterations.size(), 10u);
  EXPECT_EQ(analyzed(k_legacy, "*iteration 3*").iterations.size(), 1u);
  // "forward" is inside each step: ten of them, each shorter than its step.
  const trace_breakdown fwd = analyzed(k_legacy, "forward");
  ASSERT_EQ(fwd.iterations.size(), 10u);
  EXPECT_EQ(fwd.iteration_source, "forward");
  const trace_breakdown steps = analyzed(k_legacy);
  EXPECT_LT(fwd.iterations[0].duration_us, steps.iterations[0].duration_us);
  EXPECT_TRUE(analyzed(k_legacy, "## epoch * ##").iterations.empty());
  analysis_options both;
  both.iteration_op = "forward";
  both.iteration_label = "forward";
  try {
    analyze_trace(read_trace_file(::jetperf::test::fixtures_dir() + "/" + k_legacy), both);
    ADD_FAILURE() << "both accepted";
  } catch (const validation_error& e) {
    EXPECT_EQ(e.field(), "iteration_label");
  }
}

TEST(iteration_labels, patterns_match_whole_names) {
  EXPECT_TRUE(matches_pattern("## iteration * ##", "## iteration 12 ##"));
  EXPECT_TRUE(matches_pattern("## iteration * ##", "## iteration  ##"));
  EXPECT_FALSE(matches_pattern("## iteration * ##", "## iteration 12 ## "));
  EXPECT_FALSE(matches_pattern("## iteration * ##", "x## iteration 1 ##"));
  EXPECT_TRUE(matches_pattern("ProfilerStep#*", "ProfilerStep#3"));
  EXPECT_TRUE(matches_pattern("step_?", "step_7"));
  EXPECT_FALSE(matches_pattern("step_?", "step_17"));
  EXPECT_TRUE(matches_pattern("*a*b*", "xxaxxbxx"));
  EXPECT_FALSE(matches_pattern("*a*b", "xxaxxbxx"));
  EXPECT_TRUE(matches_pattern("exact", "exact"));
  EXPECT_FALSE(matches_pattern("exact", "exactly"));
}

// The names torch itself recorded as record_function ranges: the Kineto-form file's
// user_annotation events (RecordScope.USER_SCOPE in the profile they were written from).
std::set<std::string> user_scope_names() {
  std::set<std::string> names;
  const json doc = json::parse(::jetperf::test::fixture_text(k_kineto));
  for (const auto& e : events_of(doc))
    if (e.at("cat") == "user_annotation") names.insert(e.at("name").get<std::string>());
  return names;
}

TEST(iteration_labels, legacy_ranges_are_told_from_ops_as_torch_recorded_them) {
  const std::set<std::string> want = user_scope_names();
  ASSERT_TRUE(want.count("backward") && want.count("forward") && want.count("## iteration 0 ##")) << want.size();
  trace t = read_trace_file(::jetperf::test::fixtures_dir() + "/" + k_legacy);
  EXPECT_FALSE(t.categorized);
  mark_legacy_labels(t, overhead_model{}.module_markers);
  std::set<std::string> marked;
  for (const auto& e : t.events)
    if (e.category == event_category::user_annotation) marked.insert(t.name_of(e));
  EXPECT_EQ(marked, want);
  // A categorized trace is left as its file says.
  trace k = read_trace_file(::jetperf::test::fixtures_dir() + "/" + k_kineto);
  EXPECT_TRUE(k.categorized);
  EXPECT_EQ(mark_legacy_labels(k, overhead_model{}.module_markers), 0u);
}

TEST(iteration_labels, names_of_ops_and_of_ranges) {
  const auto& m = overhead_model{}.module_markers;
  for (const char* op : {"aten::mm", "autograd::engine::evaluate_function: AddmmBackward0", "AddmmBackward0",
                         "torch::autograd::AccumulateGrad", "MyFunctionBackward", "CppNode<MyFn>", "mylib::op"})
    EXPECT_FALSE(is_label_name(op, m)) << op;
  for (const char* label : {"forward", "backward", "## iteration 3 ##", "ProfilerStep#2", "Optimizer.step#SGD.step",
                            "module::Linear", "DLRM forward", "train step"})
    EXPECT_TRUE(is_label_name(label, m)) << label;
}

// The op names the host overheads list (T2, T3, T5 are by op name).
std::set<std::string> overhead_names(const host_overheads& h) {
  std::set<std::string> names;
  for (const auto* m : {&h.t2, &h.t3, &h.t5})
    for (const auto& kv : *m) names.insert(kv.first);
  return names;
}

TEST(iteration_labels, labels_are_never_ops_and_both_forms_agree) {
  const trace_breakdown legacy = analyzed(k_legacy), kineto = analyzed(k_kineto);
  const std::set<std::string> labels = user_scope_names();
  for (const auto* b : {&legacy, &kineto}) {
    for (const auto& name : overhead_names(b->overheads)) EXPECT_EQ(labels.count(name), 0u) << name << " counted as an op";
    EXPECT_TRUE(b->overheads.t5.count("aten::embedding_bag")) << "the ops under the labels are the seed's";
    for (const auto& op : b->ops) EXPECT_EQ(op.label, labels.count(op.key) > 0) << op.key;
  }
  // The same events: the same ops and the same overheads, whichever form they came in.
  EXPECT_EQ(legacy.overheads.ops, kineto.overheads.ops);
  EXPECT_EQ(overhead_names(legacy.overheads), overhead_names(kineto.overheads));
  EXPECT_EQ(legacy.overheads.t1.count, kineto.overheads.t1.count);
  EXPECT_DOUBLE_EQ(legacy.overheads.t1.sum, kineto.overheads.t1.sum);
  for (const auto& [name, s] : legacy.overheads.t5) {
    ASSERT_TRUE(kineto.overheads.t5.count(name)) << name;
    EXPECT_EQ(s.count, kineto.overheads.t5.at(name).count) << name;
    EXPECT_DOUBLE_EQ(s.sum, kineto.overheads.t5.at(name).sum) << name;
  }
}

TEST(iteration_labels, each_iteration_has_its_overheads_and_qps) {
  const trace_breakdown b = analyzed(k_legacy);
  ASSERT_EQ(b.iterations.size(), 10u);
  EXPECT_TRUE(b.overheads_in_iterations);
  std::size_t ops = 0, t1 = 0, t5 = 0;
  double t5_sum = 0;
  for (const auto& it : b.iterations) {
    EXPECT_GT(it.ops, 50u) << it.name;
    ASSERT_TRUE(it.qps.has_value());
    EXPECT_NEAR(*it.qps, k_batch / (it.duration_us * 1e-6), 1e-6 * *it.qps) << it.name;
    EXPECT_EQ(it.t2.count, 0u);  // a CPU-only profile launches nothing
    ops += it.ops;
    t1 += it.t1.count;
    t5 += it.t5.count;
    t5_sum += it.t5.sum;
  }
  // The iterations hold every op the overheads counted: the steps are siblings, so no T1 pair
  // spans two of them.
  EXPECT_EQ(ops, b.overheads.ops);
  EXPECT_EQ(t1, b.overheads.t1.count);
  std::size_t t5_all = 0;
  double t5_all_sum = 0;
  for (const auto& kv : b.overheads.t5) {
    t5_all += kv.second.count;
    t5_all_sum += kv.second.sum;
  }
  EXPECT_EQ(t5, t5_all);
  EXPECT_NEAR(t5_sum, t5_all_sum, 1e-6 * std::fabs(t5_all_sum));
}

TEST(iteration_labels, ops_outside_the_iterations_are_left_out_of_the_overheads) {
  // The hand-made GPU trace with aten::relu as the iteration: only relu's launch remains.
  analysis_options o;
  o.iteration_op = "aten::relu";
  const trace_breakdown b = analyze_trace(parse_trace(test::gpu_trace_json()), o);
  ASSERT_EQ(b.iterations.size(), 1u);
  EXPECT_EQ(b.overheads.ops, 1u);
  EXPECT_EQ(b.overheads.t1.count, 0u);
  ASSERT_EQ(b.overheads.t2.size(), 1u);
  EXPECT_TRUE(b.overheads.t2.count("aten::relu"));
  EXPECT_EQ(b.iterations[0].ops, 1u);
  EXPECT_EQ(b.iterations[0].t4.count, 1u);
  // Without iterations, every op as before.
  o.iteration_op = "no such op";
  const trace_breakdown all = analyze_trace(parse_trace(test::gpu_trace_json()), o);
  EXPECT_FALSE(all.overheads_in_iterations);
  EXPECT_GT(all.overheads.ops, 5u);
}

TEST(iteration_labels, pooled_statistics_are_those_of_the_union) {
  const std::vector<double> a{1, 2, 3}, b{10, 20}, both{1, 2, 3, 10, 20};
  const sample_stats p = pooled({summarize(a), summarize(b), summarize({})});
  const sample_stats w = summarize(both);
  EXPECT_EQ(p.count, w.count);
  EXPECT_DOUBLE_EQ(p.sum, w.sum);
  EXPECT_DOUBLE_EQ(p.mean, w.mean);
  EXPECT_NEAR(p.std, w.std, 1e-12);
  EXPECT_EQ(pooled({}).count, 0u);
}

}  // namespace
}  // namespace jetperf::traces
