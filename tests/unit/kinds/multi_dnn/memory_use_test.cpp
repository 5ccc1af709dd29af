// The RAM and SWAP of a mapping's tegrastats aggregates, from platform's memory counters (the
// kind reads no /proc file itself): in use = total - left, in MB with two decimals, as seed 001.
#include <jetperf/kinds/multi_dnn/tegrastats_aggregates.hpp>

#include <gtest/gtest.h>

namespace jetperf::kinds {
namespace {

std::optional<std::int64_t> kib(std::int64_t n) { return n * 1024; }

TEST(memory_use, ram_and_swap_in_use_are_megabytes_of_two_decimals) {
  platform::memory_info m;
  m.total_bytes = kib(7999936);      // an Orin Nano 8GB's MemTotal
  m.available_bytes = kib(5623456);  // 2320.78125 MB in use
  m.swap_total_bytes = kib(3999968);
  m.swap_free_bytes = kib(3999968);
  const auto use = memory_use_of(m);
  EXPECT_EQ(use.ram_mb, 2320.78);
  EXPECT_EQ(use.swap_mb, 0.0);
}

TEST(memory_use, a_counter_the_file_lacks_leaves_its_value_out) {
  platform::memory_info m;
  m.total_bytes = kib(2048);
  m.swap_total_bytes = kib(1024);
  m.swap_free_bytes = kib(512);
  const auto use = memory_use_of(m);
  EXPECT_FALSE(use.ram_mb);
  EXPECT_EQ(use.swap_mb, 0.5);
  EXPECT_FALSE(memory_use_of(platform::memory_info{}).swap_mb);
}

}  // namespace
}  // namespace jetperf::kinds
