// A GPU point's traced runs and kernels on the timeline, over a tracer that plays back kernels
// launched inside the runs it was given.
#include <jetperf/store/cell_json.hpp>
#include <jetperf/measure/kernel_runs.hpp>

#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include <jetperf/common/clock.hpp>

#include "support/playback_tracer.hpp"
#include "support/timeline_capture.hpp"

using namespace jetperf;
using namespace jetperf::measure;
using workloads::gpu_kernel;
using test::playback_tracer;

namespace {

gpu_kernel kernel(std::int64_t launch, std::int64_t start, std::int64_t end) {
  return playback_tracer::kernel("k", launch, start, end);
}

}  // namespace

TEST(kernel_runs, a_kernel_belongs_to_the_run_its_launch_call_fell_in) {
  const std::vector<run_span> runs{{100, 200}, {300, 400}};
  const auto owner = kernel_runs(runs, {kernel(150, 390, 395),   // launched in run 0, ran late
                                        kernel(-1, 310, 320),    // launch unknown: its start
                                        kernel(250, 260, 270),   // launched between the runs
                                        kernel(200, 205, 210),   // launched at run 0's last instant
                                        kernel(-1, 50, 60)});    // before every run
  EXPECT_EQ(owner, (std::vector<int>{0, 1, -1, 0, -1}));
  EXPECT_TRUE(kernel_runs({}, {kernel(1, 2, 3)}) == std::vector<int>{-1});
}

TEST(kernel_runs, traced_runs_and_their_kernels_go_on_the_timeline) {
  playback_tracer tracer;
  test::timeline_capture tl;
  const auto ctx = tl.ctx();
  tracer.launch(0, 1000);  // before start(): not in the trace
  const auto run_once = [&] {
    const auto t0 = monotonic_ns();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    const auto t1 = monotonic_ns();
    tracer.launch(t0, t1);
    return 1e-9 * static_cast<double>(t1 - t0);
  };
  const auto r = record_kernel_runs(ctx, tracer, run_once, 3, 100);
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.runs, 3u);
  EXPECT_EQ(r.kernels, 6u);
  EXPECT_EQ(r.dropped, 0u);
  EXPECT_EQ(r.unattributed, 0u);
  EXPECT_EQ(tracer.stops_max, 100u);

  const auto runs = tl.on("runs");
  ASSERT_EQ(runs.size(), 3u);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].name, "traced run");
    EXPECT_EQ(jetperf::to_json(runs[i].args)["run"], i);
    EXPECT_EQ(jetperf::to_json(runs[i].args)["kernel_trace"], true);
    EXPECT_EQ(jetperf::to_json(runs[i].args)["kernels"], 2);
  }
  EXPECT_EQ(jetperf::to_json(runs[0].args)["clock_uncertainty_ns"], 120);
  const auto kernels = tl.on("kernels");
  ASSERT_EQ(kernels.size(), 6u);
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto run = jetperf::to_json(kernels[i].args)["run"].get<std::size_t>();
    EXPECT_EQ(run, i / 2) << i;
    EXPECT_GE(kernels[i].t_start_ns, runs[run].t_start_ns);
    EXPECT_LE(kernels[i].t_end_ns, runs[run].t_end_ns);
  }
  EXPECT_EQ(kernels[0].name, "conv_kernel");
  EXPECT_EQ(jetperf::to_json(kernels[0].args)["grid"], (nlohmann::json{8, 4, 1}));
  EXPECT_EQ(jetperf::to_json(kernels[0].args)["block"], (nlohmann::json{128, 1, 1}));
  EXPECT_EQ(jetperf::to_json(kernels[0].args)["stream"], 7);
  EXPECT_EQ(jetperf::to_json(kernels[0].args)["correlation"], 1);
  EXPECT_TRUE(jetperf::to_json(kernels[0].args)["launch_ns"].is_number());
  EXPECT_EQ(kernels[1].name, "relu_kernel");
  EXPECT_TRUE(jetperf::to_json(kernels[1].args)["launch_ns"].is_null());
}

TEST(kernel_runs, past_the_bound_kernels_are_counted_not_kept) {
  playback_tracer tracer;
  test::timeline_capture tl;
  const auto run_once = [&] {
    const auto t0 = monotonic_ns();
    tracer.launch(t0, t0 + 1000);
    return 1e-6;
  };
  const auto r = record_kernel_runs(tl.ctx(), tracer, run_once, 4, 5);
  EXPECT_EQ(r.kernels, 5u);
  EXPECT_EQ(r.dropped, 3u);
  EXPECT_EQ(tl.on("kernels").size(), 5u);
  EXPECT_EQ(jetperf::to_json(tl.on("runs").front().args)["kernels_dropped"], 3);
}

TEST(kernel_runs, a_refusing_tracer_leaves_the_reason_and_no_traced_runs) {
  playback_tracer tracer;
  tracer.refuse = true;
  test::timeline_capture tl;
  int ran = 0;
  const auto r = record_kernel_runs(tl.ctx(), tracer, [&] { return ++ran, 1e-6; });
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(r.runs, 0u);
  EXPECT_EQ(r.error, "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
  const auto kernels = tl.on("kernels");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "kernel trace unavailable");
  EXPECT_EQ(jetperf::to_json(kernels[0].args)["reason"], r.error);
  EXPECT_TRUE(tl.on("runs").empty());
}
