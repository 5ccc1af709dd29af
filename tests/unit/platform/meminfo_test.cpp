#include <jetperf/platform/meminfo.hpp>

#include <gtest/gtest.h>

namespace jetperf::platform {
namespace {

// The head of an AGX Orin's /proc/meminfo (L4T 36.4).
const char* const k_meminfo =
    "MemTotal:       64335836 kB\n"
    "MemFree:        60016392 kB\n"
    "MemAvailable:   61234520 kB\n"
    "Buffers:           26152 kB\n"
    "HugePages_Total:       0\n";

TEST(meminfo, values_are_read_in_bytes_by_key) {
  EXPECT_EQ(meminfo_bytes(k_meminfo, "MemTotal"), std::int64_t{64335836} * 1024);
  EXPECT_EQ(meminfo_bytes(k_meminfo, "MemAvailable"), std::int64_t{61234520} * 1024);
  // A key that is the start of another is not it; a missing key is nullopt.
  EXPECT_FALSE(meminfo_bytes(k_meminfo, "Mem"));
  EXPECT_FALSE(meminfo_bytes(k_meminfo, "SwapTotal"));
  EXPECT_FALSE(meminfo_bytes("", "MemTotal"));
}

}  // namespace
}  // namespace jetperf::platform
