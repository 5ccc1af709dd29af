// Whole-network runs timed op by op (the in-context latency of every layer): the spans come in
// the network's op order, do not overlap, stay within the run, and add up to about a plain run;
// every op says which implementation ran it.
#include <gtest/gtest.h>

#include <algorithm>

#include <jetperf/common/clock.hpp>
#include <jetperf/config.hpp>
#include <jetperf/models/zoo.hpp>
#include <jetperf/workloads/layer_backends.hpp>

using namespace jetperf;
using namespace jetperf::workloads;

namespace {

void expect_ordered_spans(layer_backend& be, const models::network& net, const models::layer& l) {
  be.prepare(net, l, 1, gemm_dtype::single);
  for (int i = 0; i < 3; ++i) be.timed_run_s();
  const auto before = monotonic_ns();
  const auto spans = be.timed_run_ops();
  const auto after = monotonic_ns();
  ASSERT_FALSE(spans.empty()) << be.name();
  for (std::size_t i = 0; i < spans.size(); ++i) {
    EXPECT_GE(spans[i].op, l.first);
    EXPECT_LT(spans[i].op, l.last);
    EXPECT_LE(spans[i].start_ns, spans[i].end_ns);
    if (i > 0) {
      EXPECT_GT(spans[i].op, spans[i - 1].op) << "ops out of order at " << i;
      EXPECT_GE(spans[i].start_ns, spans[i - 1].end_ns);
    }
  }
  EXPECT_GE(spans.front().start_ns, before);
  EXPECT_LE(spans.back().end_ns, after);
  // (What op-by-op timing costs a run is a speed figure: not asserted here, where a loaded host
  // stretched it 5x.)
  const auto kernels = be.op_kernels();
  for (const auto& s : spans) {
    ASSERT_TRUE(kernels.count(s.op)) << "op " << s.op << " has no kernel";
    EXPECT_FALSE(kernels.at(s.op).empty());
    EXPECT_NE(kernels.at(s.op), "unknown");
  }
}

}  // namespace

// oneDNN's op timing needs oneDNN; a build without it answers "not supported by this build"
// (onednn_layers.factory_and_name checks that) and the reference backend below still runs.
#if JETPERF_HAS_ONEDNN
TEST(layer_op_timing, onednn_times_each_op_of_a_whole_network_in_order) {
  std::string why;
  auto be = make_onednn_layer_backend(&why);
  ASSERT_NE(be, nullptr) << why;
  // mobilenet_v3_small whole (depthwise and pointwise convolutions with their reorders,
  // squeeze-and-excitation's pools and products, hardswish, adds): resnet18 took 0.35 s here
  // and over the 300 s timeout under qemu-user (deploy/check-platforms.sh arm64); this network
  // takes 0.09-0.17 s here.
  const auto net = models::build_model("mobilenet_v3_small");
  expect_ordered_spans(*be, net, models::whole_network(net));
}
#endif

TEST(layer_op_timing, the_reference_backend_times_each_op_too) {
  auto be = make_reference_layer_backend();
  const auto net = models::build_model("squeezenet1_0");
  const auto layers = models::layers_of(net, models::granularity::block);
  expect_ordered_spans(*be, net, layers.at(3));
  EXPECT_EQ(be->op_kernels().begin()->second, "reference");
}
