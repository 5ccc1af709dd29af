// The memory limit the kinds check points against: the board's, else this host's for CPU points.
#include <jetperf/measure/memory_limit.hpp>

#include <gtest/gtest.h>

namespace jetperf::measure {
namespace {

TEST(memory_limit, the_board_reports_it) {
  platform::board_offer board;
  board.gpu_memory_bytes = 4LL << 30;
  board.memory_bytes = 8LL << 30;
  EXPECT_EQ(device_memory_limit(board, "cuda").bytes, 4LL << 30);
  EXPECT_EQ(device_memory_limit(board, "cuda").source, "gpu_memory_bytes");
  EXPECT_EQ(device_memory_limit(board, "cpu").bytes, 8LL << 30);
  EXPECT_EQ(device_memory_limit(board, "cpu").source, "memory_bytes");
  // A Jetson's GPU shares the board's memory: without a GPU figure, the board's.
  board.gpu_memory_bytes = 0;
  EXPECT_EQ(device_memory_limit(board, "cuda").bytes, 8LL << 30);
  EXPECT_EQ(device_memory_limit(board, "cuda").source, "memory_bytes");
}

TEST(memory_limit, a_board_that_reports_none_runs_cpu_points_on_this_host) {
  const platform::board_offer simulated;
  const auto host = host_memory_bytes();
  ASSERT_GT(host, 0) << "Linux always reports its physical memory";
  EXPECT_EQ(device_memory_limit(simulated, "cpu").bytes, host);
  EXPECT_EQ(device_memory_limit(simulated, "cpu").source, "this host's memory");
  // Its GPU, if any, is not this host's: nothing is known, nothing is checked.
  EXPECT_EQ(device_memory_limit(simulated, "cuda").bytes, 0);
}

}  // namespace
}  // namespace jetperf::measure
