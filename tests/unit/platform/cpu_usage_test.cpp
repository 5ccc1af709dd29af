#include <jetperf/platform/cpu_usage.hpp>

#include <stdexcept>

#include <gtest/gtest.h>

namespace jetperf::platform {
namespace {

// /proc/stat as a 4-core host writes it (Linux 6.1): the aggregate line, then one per core.
const char* const k_stat =
    "cpu  4705 356 584 3699176 23 0 29 0 0 0\n"
    "cpu0 1393 280 260 923580 7 0 19 5 0 0\n"
    "cpu1 1000 20 100 925000 3 0 5 0 0 0\n"
    "cpu2 1200 36 124 925296 12 1 3 0 0 0\n"
    "cpu3 1112 20 100 925300 1 0 2 0 0 0\n"
    "intr 114930548 113199788 3 0 5 263 0 4 [...]\n"
    "ctxt 1990473\n"
    "btime 1062191376\n";

TEST(cpu_usage, busy_time_is_user_nice_system_irq_softirq_and_steal_of_the_cores_asked) {
  // cpu0: 1393 + 280 + 260 + 0 + 19 + 5 (steal) = 1957 ticks; iowait (7) and idle are not busy.
  EXPECT_DOUBLE_EQ(busy_seconds(k_stat, {0}, 100), 19.57);
  // cpu1 + cpu3: 1125 + 1234.
  EXPECT_DOUBLE_EQ(busy_seconds(k_stat, {1, 3}, 100), 23.59);
  EXPECT_THROW(busy_seconds(k_stat, {4}, 100), std::runtime_error);
  // A kernel without the steal column (before 2.6.11) still reads.
  EXPECT_DOUBLE_EQ(busy_seconds("cpu0 10 0 5 100 0 0 1\n", {0}, 100), 0.16);
}

TEST(cpu_usage, others_share_is_busy_time_less_our_own_over_the_cores_time) {
  cpu_usage_snapshot a{0, 100.0, 10.0, 4};
  cpu_usage_snapshot b{2'000'000'000, 104.0, 13.0, 4};  // 2 s x 4 cores = 8 s; busy 4 s, ours 3 s
  EXPECT_DOUBLE_EQ(others_share(a, b), 1.0 / 8.0);
  b.own_s = 15.0;  // ours counted more finely than the ticks: never below 0
  EXPECT_DOUBLE_EQ(others_share(a, b), 0.0);
  EXPECT_DOUBLE_EQ(others_share(a, a), 0.0);
}

TEST(cpu_usage, this_hosts_proc_stat_reads_and_counts_our_own_spinning) {
  const proc_cpu_usage usage;
  const auto a = usage.now();
  EXPECT_GT(a.cores, 0);
  EXPECT_GT(a.busy_s, 0.0);
  volatile double x = 0;
  while (usage.now().own_s - a.own_s < 0.05) x = x + 1;
  const auto b = usage.now();
  EXPECT_GE(b.own_s - a.own_s, 0.05);
  EXPECT_GT(b.t_ns, a.t_ns);
  EXPECT_THROW(proc_cpu_usage("/nonexistent/stat").now(), std::runtime_error);
}

}  // namespace
}  // namespace jetperf::platform
