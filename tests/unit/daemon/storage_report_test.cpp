// The health answer's storage figures come from a report a thread of its own refreshes: a request
// reads no file and runs no query (issue 58 item 6: every health check once stat'ed the database
// and queried it, 6.8k answers a second against 30k).
#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "storage_report.hpp"

using namespace jetperf;

TEST(storage_report, requests_copy_the_latest_read_and_a_thread_refreshes_it) {
  std::atomic<int> reads{0};
  auto read = [&reads] {
    api::storage_status st;
    st.database_bytes = ++reads;
    return st;
  };
  daemon::storage_report report(read, std::chrono::milliseconds(20));
  EXPECT_GE(reads.load(), 1);
  const int before = reads.load();
  std::int64_t seen = 0;
  for (int i = 0; i < 10000; ++i) seen = report.latest().database_bytes;
  // Ten thousand answers, a handful of reads (each 20 ms at most): none on the request path.
  EXPECT_LE(reads.load() - before, 5);
  EXPECT_GE(seen, 1);
  // The thread goes on reading, and the answers follow it.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (report.latest().database_bytes < before + 3 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_GE(report.latest().database_bytes, before + 3);
}

TEST(storage_report, a_failed_read_keeps_the_figures_before) {
  std::atomic<int> reads{0};
  auto read = [&reads] {
    if (++reads > 1) throw std::runtime_error("database is locked");
    api::storage_status st;
    st.database_bytes = 4096;
    return st;
  };
  daemon::storage_report report(read, std::chrono::milliseconds(5));
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (reads.load() < 4 && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_GE(reads.load(), 4);
  EXPECT_EQ(report.latest().database_bytes, 4096);
}
