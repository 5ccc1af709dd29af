// The /proc readers behind the end-of-run sweep, over real lines and this process's own entry.
#include <jetperf/platform/run_leftovers.hpp>

#include <unistd.h>

#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace jetperf::platform {
namespace {

TEST(run_leftovers, a_stat_line_is_read_past_a_command_with_spaces_and_parentheses) {
  // Linux 6.1, a process named "a) b (c": the fields after the last ')' are the kernel's.
  const std::string line =
      "4242 (a) b (c) S 17 4240 17 0 -1 4194560 120 0 0 0 3 1 0 0 20 0 1 0 987654 8409088 512 "
      "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0";
  const auto e = parse_proc_stat(line);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->pid, 4242);
  EXPECT_EQ(e->ppid, 17);
  EXPECT_EQ(e->pgrp, 4240);
  EXPECT_EQ(e->start_ticks, 987654u);
  EXPECT_FALSE(parse_proc_stat("4242 no parentheses S 1 2"));
  EXPECT_FALSE(parse_proc_stat("4242 (short) S 1 2 3"));
}

TEST(run_leftovers, this_process_reads_as_itself) {
  std::ifstream in("/proc/self/stat");
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const auto e = parse_proc_stat(line);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->pid, ::getpid());
  EXPECT_EQ(e->ppid, ::getppid());
  EXPECT_EQ(e->pgrp, ::getpgrp());
  EXPECT_GT(e->start_ticks, 0u);
  EXPECT_LE(e->start_ticks, boot_ticks_now());
}

}  // namespace
}  // namespace jetperf::platform
