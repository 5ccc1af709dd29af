// What Ctrl-C on `watch` says: the job goes on, and the command that stops it.
#include <gtest/gtest.h>

#include "watch_interrupt.hpp"

namespace jetperf::client {
namespace {

TEST(watch_interrupt, the_message_names_the_job_and_the_cancel_command) {
  EXPECT_EQ(watch_interrupt_message(12, false),
            "stopped watching; job 12 keeps running on the daemon (cancel it: jetperf cancel 12)\n");
  // After a progress bar redrawn in place, on a line of its own.
  EXPECT_EQ(watch_interrupt_message(7, true),
            "\nstopped watching; job 7 keeps running on the daemon (cancel it: jetperf cancel 7)\n");
}

}  // namespace
}  // namespace jetperf::client
