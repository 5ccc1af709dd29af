// The memory limit the kinds check points against: the board's, and for CPU points no more than
// this host has available (they run here).
#include <jetperf/kinds/common/memory_limit.hpp>

#include <gtest/gtest.h>

namespace jetperf::kinds::common {
namespace {

const char* const k_available = "this host's available memory (MemAvailable, less its headroom)";

TEST(memory_limit, the_board_reports_it) {
  platform::board_offer board;
  board.gpu_memory_bytes = 4LL << 30;
  board.memory_bytes = 8LL << 30;
  EXPECT_EQ(device_memory_limit(board, "cuda").bytes, 4LL << 30);
  EXPECT_EQ(device_memory_limit(board, "cuda").source, "gpu_memory_bytes");
  // A Jetson's GPU shares the board's memory: without a GPU figure, the board's.
  board.gpu_memory_bytes = 0;
  EXPECT_EQ(device_memory_limit(board, "cuda").bytes, 8LL << 30);
  EXPECT_EQ(device_memory_limit(board, "cuda").source, "memory_bytes");
}

TEST(memory_limit, cpu_points_get_no_more_than_this_host_has_available) {
  ASSERT_GT(host_available_memory_bytes(), 0) << "Linux 3.14 and later report MemAvailable";
  EXPECT_LE(host_available_memory_bytes(), host_memory_bytes());
  // A board far larger than this host: the host's available memory is the limit.
  platform::board_offer huge;
  huge.memory_bytes = std::int64_t{1} << 50;
  const auto limit = device_memory_limit(huge, "cpu");
  EXPECT_EQ(limit.source, k_available);
  EXPECT_GT(limit.bytes, 0);
  EXPECT_LE(limit.bytes, host_memory_bytes());
  // Less its headroom for the daemon and the board (CPU GEMM points of 19 GB were accepted
  // against 22 GB available, leaving the board 3 GB).
  EXPECT_GE(cpu_headroom_bytes(), std::int64_t{512} << 20);
  EXPECT_GE(cpu_headroom_bytes(), host_memory_bytes() / 10);
  EXPECT_LE(limit.bytes, host_available_memory_bytes() - cpu_headroom_bytes() + (std::int64_t{64} << 20));
  // A board smaller than what is free here: the board's.
  platform::board_offer tiny;
  tiny.memory_bytes = 1 << 20;
  EXPECT_EQ(device_memory_limit(tiny, "cpu").bytes, 1 << 20);
  EXPECT_EQ(device_memory_limit(tiny, "cpu").source, "memory_bytes");
}

TEST(memory_limit, a_board_that_reports_none_runs_cpu_points_on_this_host) {
  const platform::board_offer simulated;
  const auto limit = device_memory_limit(simulated, "cpu");
  EXPECT_EQ(limit.source, k_available);
  EXPECT_GT(limit.bytes, 0);
  EXPECT_LE(limit.bytes, host_memory_bytes());
  // Its GPU, if any, is not this host's: nothing is known, nothing is checked.
  EXPECT_EQ(device_memory_limit(simulated, "cuda").bytes, 0);
}

}  // namespace
}  // namespace jetperf::kinds::common
