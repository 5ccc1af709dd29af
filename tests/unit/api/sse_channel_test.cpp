#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include <jetperf/api/sse_channel.hpp>

namespace jetperf::api {
namespace {

using namespace std::chrono_literals;

// A session closes its channel when its stream ends, also while the server is being destroyed;
// a producer thread (the telemetry feed, the job runner) may be inside the notifier just then,
// posting into the session's io_context. close() returns only after that call has returned, so
// nothing reaches the io_context once the session let go of it.
TEST(sse_channel, close_waits_for_a_notifier_call_under_way) {
  sse_channel channel;
  std::promise<void> entered;
  std::mutex mutex;
  std::condition_variable changed;
  bool close_returned = false;
  bool close_had_returned_inside = false;
  std::atomic<bool> notifier_returned{false};
  channel.set_notifier([&] {
    entered.set_value();
    std::unique_lock<std::mutex> lock(mutex);
    // A close() that waits for this call cannot return meanwhile: the wait then ends at its
    // bound (no time is asserted). One that does not wait returns, and is caught here.
    changed.wait_for(lock, 300ms, [&] { return close_returned; });
    close_had_returned_inside = close_returned;
    notifier_returned = true;
  });
  std::thread producer([&] { channel.push("sample", "{}"); });
  entered.get_future().wait();
  bool notifier_done_when_close_returned = false;
  std::thread closer([&] {
    channel.close();
    notifier_done_when_close_returned = notifier_returned.load();
    std::lock_guard<std::mutex> lock(mutex);
    close_returned = true;
    changed.notify_all();
  });
  closer.join();
  producer.join();
  EXPECT_TRUE(notifier_done_when_close_returned);
  EXPECT_FALSE(close_had_returned_inside);
  EXPECT_TRUE(channel.closed());
}

TEST(sse_channel, a_closed_channel_calls_no_notifier) {
  sse_channel channel;
  int calls = 0;
  channel.set_notifier([&] { ++calls; });
  channel.push("sample", "1");
  EXPECT_EQ(calls, 1);
  channel.close();
  channel.push("sample", "2");
  channel.push_comment("keep-alive");
  channel.finish();
  EXPECT_EQ(calls, 1);
  std::vector<std::string> frames;
  channel.drain(frames);
  EXPECT_TRUE(frames.empty());
}

}  // namespace
}  // namespace jetperf::api
