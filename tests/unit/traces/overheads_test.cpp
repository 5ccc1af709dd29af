// Seed 004's host overheads T1..T5 on traces written here, each gap chosen so that every value is
// known. With the seed's constants CPU_EVENT_OVERHEAD C = 2, GPU_EVENT_OVERHEAD G = 4,
// KERNEL_LAUNCH_LENGTH K = 10 (us), over the hand-made GPU trace (gpu_trace.hpp), the seed's ops
// are linear, relu, zeros, to, copy_, add (under ProfilerStep#1) and mul (a root on thread 2):
//   linear: launches at 120 (2 events before: aten::t, aten::addmm) and 150 (1 before: the
//           skipped cudaEventRecord is counted before a launch but not as a sub-event);
//           5 sub-events (linear, t, addmm, two launches)
//     T2 = 120 - 100 - 2C = 16   T3 = 200 - 160 - 0C = 40   T5 = 150 - 130 - 1C = 18
//   relu:  T2 = 220 - 210 = 10, T3 = 240 - 228 - 1C = 10 (relu itself is the one trailing event), T5 = 0
//   zeros: no launch: T5 = 20 - 3C = 14          to: no launch, skipped (no T5, no T1 with zeros)
//   copy_: the memcpy is a launch, cudaStreamSynchronize is not:
//     T2 = 310 - 300 = 10, T3 = 340 - 322 - 2C = 14, T5 = 0
//   add:   T5 = 10 - C = 8                       mul: T5 = 10 - C = 8
//   T1: linear->relu 10 - C = 8, relu->zeros 8, to->copy_ 16 - C = 14; copy_->add (gap 260 >= 200)
//       and add->mul (other parent) are not gaps: mean 10, std sqrt(8)
//   T4 = K - C - G = 4 per launch: three cudaLaunchKernel, one cudaMemcpyAsync
#include <cmath>

#include <gtest/gtest.h>

#include <jetperf/traces/host_overheads.hpp>
#include <jetperf/traces/op_tree.hpp>
#include <jetperf/traces/trace_reader.hpp>

#include <support/gpu_trace.hpp>

namespace jetperf::traces {
namespace {

host_overheads overheads_of(const std::string& json, const overhead_model& model = {}) {
  const trace t = parse_trace(json);
  return compute_host_overheads(t, build_op_tree(t), model);
}

void expect_one(const std::map<std::string, sample_stats>& m, const std::string& name, double value) {
  const auto it = m.find(name);
  ASSERT_NE(it, m.end()) << name;
  EXPECT_EQ(it->second.count, 1u) << name;
  EXPECT_DOUBLE_EQ(it->second.mean, value) << name;
  EXPECT_DOUBLE_EQ(it->second.std, 0.0) << name;
}

TEST(host_overheads, seed_operators_are_the_outermost_ops_under_labels) {
  const trace t = parse_trace(test::gpu_trace_json());
  const op_tree tree = build_op_tree(t);
  std::vector<std::string> names;
  for (auto n : seed_operators(t, tree, {})) names.push_back(t.name_of(t.events[tree.nodes[n].event]));
  EXPECT_EQ(names, (std::vector<std::string>{"aten::linear", "aten::relu", "aten::zeros", "aten::to", "aten::copy_",
                                             "aten::add", "aten::mul"}));
}

TEST(host_overheads, t1_to_t5_of_the_gpu_trace) {
  const host_overheads o = overheads_of(test::gpu_trace_json());
  EXPECT_EQ(o.ops, 7u);

  EXPECT_EQ(o.t1.count, 3u);
  EXPECT_DOUBLE_EQ(o.t1.mean, 10.0);
  EXPECT_DOUBLE_EQ(o.t1.std, std::sqrt(8.0));
  EXPECT_DOUBLE_EQ(o.t1.sum, 30.0);

  EXPECT_EQ(o.t2.size(), 3u);
  expect_one(o.t2, "aten::linear", 16);
  expect_one(o.t2, "aten::relu", 10);
  expect_one(o.t2, "aten::copy_", 10);

  EXPECT_EQ(o.t3.size(), 3u);
  expect_one(o.t3, "aten::linear", 40);
  expect_one(o.t3, "aten::relu", 10);
  expect_one(o.t3, "aten::copy_", 14);

  ASSERT_EQ(o.t4.size(), 2u);
  EXPECT_EQ(o.t4.at("cudaLaunchKernel").count, 3u);
  EXPECT_DOUBLE_EQ(o.t4.at("cudaLaunchKernel").mean, 4.0);
  EXPECT_EQ(o.t4.at("cudaMemcpyAsync").count, 1u);
  EXPECT_DOUBLE_EQ(o.t4.at("cudaMemcpyAsync").mean, 4.0);

  EXPECT_EQ(o.t5.size(), 6u);  // aten::to gives none
  expect_one(o.t5, "aten::linear", 18);
  expect_one(o.t5, "aten::relu", 0);
  expect_one(o.t5, "aten::zeros", 14);
  expect_one(o.t5, "aten::copy_", 0);
  expect_one(o.t5, "aten::add", 8);
  expect_one(o.t5, "aten::mul", 8);
  EXPECT_EQ(o.t5.count("aten::to"), 0u);

  EXPECT_EQ(o.launches.at("aten::linear"), (std::vector<std::string>{"cudaLaunchKernel", "cudaLaunchKernel"}));
  EXPECT_EQ(o.launches.at("aten::copy_"), (std::vector<std::string>{"cudaMemcpyAsync"}));
  EXPECT_EQ(o.launches.count("aten::zeros"), 0u);
}

TEST(host_overheads, the_constants_are_the_callers) {
  overhead_model m;
  m.cpu_event_overhead_us = 3.8;  // the earlier analysis/utils.py value
  m.gpu_event_overhead_us = 1;
  m.kernel_launch_length_us = 7;
  m.t1_max_gap_us = 15;  // drops the 16 us gap to->copy_
  const host_overheads o = overheads_of(test::gpu_trace_json(), m);
  EXPECT_EQ(o.t1.count, 2u);
  EXPECT_DOUBLE_EQ(o.t1.mean, 10 - 3.8);
  expect_one(o.t2, "aten::linear", 20 - 2 * 3.8);
  expect_one(o.t3, "aten::copy_", 18 - 2 * 3.8);
  EXPECT_DOUBLE_EQ(o.t4.at("cudaLaunchKernel").mean, 7 - 3.8 - 1);
  expect_one(o.t5, "aten::zeros", 20 - 3 * 3.8);
}

TEST(host_overheads, repeated_ops_give_mean_and_population_std) {
  // Three aten::relu under one label, each launching once, T2 = 2, 4 and 9: mean 5, np.std
  // (ddof 0) sqrt(26/3).
  const char* json = R"([
    {"ph": "X", "name": "## fwd ##", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 0, "dur": 500},
    {"ph": "X", "name": "aten::relu", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 10, "dur": 20},
    {"ph": "X", "name": "cudaLaunchKernel", "cat": "cuda_runtime", "pid": 1, "tid": 1, "ts": 12, "dur": 5},
    {"ph": "X", "name": "aten::relu", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 40, "dur": 20},
    {"ph": "X", "name": "cudaLaunchKernel", "cat": "cuda_runtime", "pid": 1, "tid": 1, "ts": 44, "dur": 5},
    {"ph": "X", "name": "aten::relu", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 70, "dur": 20},
    {"ph": "X", "name": "cudaLaunchKernel", "cat": "cuda_runtime", "pid": 1, "tid": 1, "ts": 79, "dur": 5}
  ])";
  const host_overheads o = overheads_of(json);
  const sample_stats& t2 = o.t2.at("aten::relu");
  EXPECT_EQ(t2.count, 3u);
  EXPECT_DOUBLE_EQ(t2.mean, 5.0);
  EXPECT_NEAR(t2.std, std::sqrt(26.0 / 3.0), 1e-12);
  // T1: gaps of 10 between them, each minus C.
  EXPECT_EQ(o.t1.count, 2u);
  EXPECT_DOUBLE_EQ(o.t1.mean, 8.0);
  // T3: 20 - (launch end - op start) - 1C (the op itself trails): 30-17-2, 60-49-2, 90-84-2.
  EXPECT_DOUBLE_EQ(o.t3.at("aten::relu").mean, (11.0 + 9.0 + 4.0) / 3.0);
}

TEST(host_overheads, a_cpu_only_trace_has_t1_and_t5_only) {
  const char* json = R"([
    {"ph": "X", "name": "ProfilerStep#0", "pid": "CPU functions", "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "name": "aten::conv2d", "pid": "CPU functions", "tid": 1, "ts": 5, "dur": 40},
    {"ph": "X", "name": "aten::convolution", "pid": "CPU functions", "tid": 1, "ts": 6, "dur": 38},
    {"ph": "X", "name": "aten::relu", "pid": "CPU functions", "tid": 1, "ts": 50, "dur": 10}
  ])";
  const host_overheads o = overheads_of(json);
  EXPECT_TRUE(o.t2.empty());
  EXPECT_TRUE(o.t3.empty());
  EXPECT_TRUE(o.t4.empty());
  expect_one(o.t5, "aten::conv2d", 40 - 2 * 2);
  expect_one(o.t5, "aten::relu", 10 - 2);
  EXPECT_EQ(o.t1.count, 1u);
  EXPECT_DOUBLE_EQ(o.t1.mean, 5 - 2);
}

}  // namespace
}  // namespace jetperf::traces
