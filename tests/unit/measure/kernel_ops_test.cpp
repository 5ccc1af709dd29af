#include <jetperf/measure/kernel_ops.hpp>

#include <gtest/gtest.h>

namespace jetperf::measure {
namespace {

workloads::gpu_kernel kernel(std::int64_t launch, std::int64_t start, std::int64_t end) {
  workloads::gpu_kernel k;
  k.launch_ns = launch;
  k.start_ns = start;
  k.end_ns = end;
  return k;
}

TEST(kernels_by_op, each_kernel_goes_to_the_op_that_launched_it) {
  // Launched 100-200 (op 4) and 200-300 (op 5); they run later on the GPU, out of launch order.
  const std::vector<op_launch> launches{{4, 100, 199}, {5, 200, 300}};
  std::size_t lost = 9;
  const auto ops = kernels_by_op(
      launches, {kernel(250, 5000, 6000), kernel(120, 1000, 2000), kernel(150, 2010, 4990), kernel(400, 7000, 8000),
                 kernel(-1, 9000, 9100)},
      &lost);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].op, 4);
  ASSERT_EQ(ops[0].kernels.size(), 2u);
  EXPECT_EQ(ops[0].kernels[0].first, 1000);
  EXPECT_EQ(ops[0].kernels[1].second, 4990);
  EXPECT_EQ(ops[1].op, 5);
  ASSERT_EQ(ops[1].kernels.size(), 1u);
  EXPECT_EQ(ops[1].kernels[0].first, 5000);
  EXPECT_EQ(lost, 2u);  // launched after every window, and with no launch time
  // What the estimator then takes as the run's parts.
  const auto spans = stats::spans_of_kernels(ops);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].start_ns, 1000);
  EXPECT_EQ(spans[0].end_ns, 4990);
}

}  // namespace
}  // namespace jetperf::measure
