// CUPTI kernels on the timeline, on a real GPU: the runs traced after a point's window name
// their kernels, each inside the run that launched it (on CLOCK_MONOTONIC, within the clock
// conversion's uncertainty), with a grid and a block; a cuBLAS GEMM names its kernels too.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/store/cell_json.hpp>
#include <jetperf/measure/kernel_runs.hpp>
#include <jetperf/models/zoo.hpp>
#include <jetperf/workloads/gemm_backends.hpp>
#include <jetperf/workloads/layer_backends.hpp>

#include <support/timeline_capture.hpp>

using namespace jetperf;
using namespace jetperf::workloads;

namespace {

// Every kernel lies in the run it is attributed to, give or take the clock conversion (and
// CUPTI's GPU-to-CPU interpolation, a few microseconds).
void expect_kernels_in_their_runs(const test::timeline_capture& c, std::size_t runs) {
  const auto traced = c.on("runs");
  ASSERT_EQ(traced.size(), runs);
  const auto slack = jetperf::to_json(traced.front().args).value("clock_uncertainty_ns", std::int64_t{0}) + 20'000;
  const auto kernels = c.on("kernels");
  ASSERT_FALSE(kernels.empty());
  for (const auto& k : kernels) {
    ASSERT_TRUE(jetperf::to_json(k.args)["run"].is_number()) << k.name << " launched outside every traced run";
    const auto& run = traced.at(jetperf::to_json(k.args)["run"].get<std::size_t>());
    EXPECT_GE(k.t_start_ns, run.t_start_ns - slack) << k.name;
    EXPECT_LE(k.t_end_ns, run.t_end_ns + slack) << k.name;
    EXPECT_GT(k.t_end_ns, k.t_start_ns) << k.name;
    EXPECT_FALSE(k.name.empty());
    EXPECT_GT(jetperf::to_json(k.args)["grid"][0].get<int>(), 0) << k.name;
    EXPECT_GT(jetperf::to_json(k.args)["block"][0].get<int>(), 0) << k.name;
    EXPECT_TRUE(jetperf::to_json(k.args)["launch_ns"].is_number()) << k.name << ": no launch call correlated";
  }
}

}  // namespace

TEST(kernel_trace_gpu, a_resnet50_block_on_cudnn_puts_its_kernels_in_the_runs_that_launched_them) {
  std::string why;
  auto be = make_cudnn_layer_backend(&why);
  if (!be) GTEST_SKIP() << why;
  if (!be->tracer()) GTEST_SKIP() << "this build has no CUPTI";
  const auto net = models::build_resnet50();
  const auto layers = models::layers_of(net, models::granularity::block);
  const auto& l = layers.at(4);  // layer1.0: convolutions, batch norms, ReLUs, a downsample
  be->prepare(net, l, 1, gemm_dtype::single);
  be->timed_run_s();  // cuDNN's first run loads its kernels
  test::timeline_capture c;
  const auto r = measure::record_kernel_runs(c.ctx(), *be->tracer(), [&] { return be->timed_run_s(); }, 3);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.runs, 3u);
  EXPECT_EQ(r.unattributed, 0u);
  EXPECT_EQ(r.dropped, 0u);
  // layer1.0 runs at least its 4 convolutions each time.
  EXPECT_GE(r.kernels, 3u * 4u);
  EXPECT_EQ(r.kernels % 3, 0u) << "the three runs launched different kernel counts";
  expect_kernels_in_their_runs(c, 3);
}

TEST(kernel_trace_gpu, a_cublas_gemm_names_its_kernels_and_traces_them) {
  std::string why;
  auto be = make_cuda_gemm_backend(&why);
  if (!be) GTEST_SKIP() << why;
  if (!be->tracer()) GTEST_SKIP() << "this build has no CUPTI";
  be->prepare(512, 512, 512, gemm_dtype::single, false);
  const auto names = be->kernel_names();
  ASSERT_FALSE(names.empty());
  EXPECT_NE(names.front(), "unknown");
  test::timeline_capture c;
  const auto r = measure::record_kernel_runs(c.ctx(), *be->tracer(), [&] { return be->timed_run_s(); }, 2);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_GE(r.kernels, 2u);
  expect_kernels_in_their_runs(c, 2);
  // The traced kernels are the ones prepare() named.
  for (const auto& k : c.on("kernels"))
    EXPECT_NE(std::find(names.begin(), names.end(), k.name), names.end()) << k.name;
}
