// in_context on a real GPU: the cuDNN backend's kernels fall to the ops that launched them, and
// resnet50's blocks get their power from end-to-end runs under the machine's own NVML, with the
// layers' energy adding up to NVML's energy counter (docs/protocols/in_context.md, "On a GPU").
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/measure/kernel_ops.hpp>
#include <jetperf/measure/protocols/in_context.hpp>
#include <jetperf/models/zoo.hpp>
#include <jetperf/telemetry/nvml_sensor.hpp>
#include <jetperf/telemetry/sampler.hpp>
#include <jetperf/workloads/layer_backends.hpp>

#include "nvml_sampler.hpp"

using namespace jetperf;
using namespace jetperf::workloads;

TEST(in_context_device, cudnn_kernels_fall_to_the_ops_that_launched_them) {
  std::string why;
  auto be = make_cudnn_layer_backend(&why);
  if (!be) GTEST_SKIP() << why;
  if (!be->tracer()) GTEST_SKIP() << "this build has no CUPTI";
  const auto net = models::build_resnet50();
  const auto& l = models::layers_of(net, models::granularity::block).at(4);  // layer1.0
  be->prepare(net, l, 1, gemm_dtype::single);
  be->tracer()->start();
  const auto launches = be->run_once_noting_ops();
  be->sync();
  const auto trace = be->tracer()->stop(4096);
  ASSERT_FALSE(launches.empty());
  std::size_t lost = 0;
  const auto ops = measure::kernels_by_op(launches, trace.kernels, &lost);
  EXPECT_EQ(lost, 0u);
  for (const auto& o : ops) EXPECT_FALSE(o.kernels.empty()) << "op " << net.ops.at(static_cast<std::size_t>(o.op)).name;
  // One stream: the ops run one after another, in launch order.
  const auto spans = stats::spans_of_kernels(ops);
  ASSERT_EQ(spans.size(), ops.size());
  for (std::size_t i = 1; i < spans.size(); ++i) {
    EXPECT_EQ(spans[i].layer, ops[i].op);
    EXPECT_GE(spans[i].start_ns, spans[i - 1].end_ns - static_cast<std::int64_t>(trace.clock_uncertainty_ns));
  }
}

TEST(in_context_device, resnet50_blocks_in_context_add_up_to_the_nvml_energy_counter) {
  std::string why;
  auto be = make_cudnn_layer_backend(&why);
  if (!be) GTEST_SKIP() << why;
  if (!be->tracer()) GTEST_SKIP() << "this build has no CUPTI";
  const auto started = test::start_nvml_sampler(true, &why);
  if (!started) GTEST_SKIP() << why;
  auto& sampler = *started;

  const auto net = models::build_resnet50();
  const auto layers = models::layers_of(net, models::granularity::block);
  be->prepare(net, models::whole_network(net), 1, gemm_dtype::single);
  measure::point_context ctx;
  ctx.telemetry = &sampler;
  // The idle baseline: the GPU at rest for the sensor's window and more.
  measure::monotonic_clock().sleep_for(3'000'000'000);
  double idle = 0;
  std::size_t n = 0;
  const auto now = measure::monotonic_clock().now_ns();
  for (const auto& s : sampler.window(now - 2'000'000'000, now))
    if (s.channel == *sampler.total_power_channel()) idle += s.value, ++n;
  ASSERT_GT(n, 0u);
  measure::in_context_plan plan;
  plan.min_time_s = 5;
  plan.max_time_s = 20;
  const auto out = measure::measure_in_context(ctx, *be, net, layers, idle / static_cast<double>(n), plan);
  sampler.clear_job();
  sampler.stop();

  ASSERT_FALSE(out.unsupported) << *out.unsupported;
  ASSERT_TRUE(out.estimated) << out.estimator.unresolvable;
  ASSERT_TRUE(out.estimator.counter) << "no energy counter over the runs";
  const auto& c = *out.estimator.counter;
  std::cout << "in_context on " << be->name() << ": NVML period " << out.estimator.sensor.period_s * 1e3
            << " ms, " << out.estimator.runs << " runs; layers " << c.layers_j << " J + between runs "
            << c.between_runs_j << " J against the counter's " << c.counter_j << " J (" << 100 * c.sum_rel_error
            << "%), the readings alone " << c.unconstrained_gap_j << " J off\n";
  for (const auto& l : out.layers)
    std::cout << "  " << l.name << " " << to_string(l.resolution) << " " << l.power_w << " +- " << l.power_ci95_w
              << " W, " << l.latency.median_s * 1e3 << " ms\n";
  EXPECT_LT(std::abs(c.sum_rel_error), 0.01);
  std::size_t with_figure = 0;
  for (const auto& l : out.layers) with_figure += l.has_figure();
  EXPECT_GE(with_figure, layers.size() / 2);
}
