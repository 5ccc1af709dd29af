#include <jetperf/platform/meminfo.hpp>

#include <gtest/gtest.h>

#include <support/temp_dir.hpp>

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

// The file is read through the board's root, so a fixture tree stands in for /proc.
TEST(meminfo, the_counters_are_read_under_the_root) {
  test::temp_dir t;
  test::write_file(t.file("proc/meminfo"), std::string(k_meminfo) +
                                               "SwapTotal:       4194300 kB\n"
                                               "SwapFree:        4094300 kB\n");
  const auto m = read_memory_info(sysfs_root(t.path()));
  EXPECT_EQ(m.total_bytes, std::int64_t{64335836} * 1024);
  EXPECT_EQ(m.available_bytes, std::int64_t{61234520} * 1024);
  EXPECT_EQ(m.swap_total_bytes, std::int64_t{4194300} * 1024);
  EXPECT_EQ(m.swap_free_bytes, std::int64_t{4094300} * 1024);

  test::temp_dir empty;
  const auto none = read_memory_info(sysfs_root(empty.path()));
  EXPECT_FALSE(none.total_bytes);
  EXPECT_FALSE(none.available_bytes);
  EXPECT_FALSE(none.swap_total_bytes);
  EXPECT_FALSE(none.swap_free_bytes);
}

TEST(meminfo, the_host_reports_its_own_memory) {
  const auto m = host_memory_info();
  ASSERT_TRUE(m.total_bytes);
  ASSERT_TRUE(m.available_bytes) << "Linux 3.14 and later report MemAvailable";
  EXPECT_GT(*m.total_bytes, 0);
  EXPECT_LE(*m.available_bytes, *m.total_bytes);
}

}  // namespace
}  // namespace jetperf::platform
