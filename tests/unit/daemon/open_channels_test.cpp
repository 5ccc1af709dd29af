#include <gtest/gtest.h>

#include <memory>

#include <jetperf/api/sse_channel.hpp>

#include "http/open_channels.hpp"

namespace jetperf::daemon {
namespace {

// http_server::stop() relies on this before it destroys the io_context the notifiers post into.
TEST(open_channels, close_all_closes_every_channel_still_alive) {
  open_channels open;
  auto first = std::make_shared<api::sse_channel>();
  auto second = std::make_shared<api::sse_channel>();
  int calls = 0;
  second->set_notifier([&] { ++calls; });
  open.add(first);
  open.add(second);
  {
    // A stream that ended before the server stopped: its channel is gone, nothing to close.
    auto gone = std::make_shared<api::sse_channel>();
    open.add(gone);
  }
  open.close_all();
  EXPECT_TRUE(first->closed());
  EXPECT_TRUE(second->closed());
  second->push("sample", "{}");
  EXPECT_EQ(calls, 0);
}

TEST(open_channels, keeps_no_channel_alive) {
  open_channels open;
  auto channel = std::make_shared<api::sse_channel>();
  std::weak_ptr<api::sse_channel> weak = channel;
  open.add(channel);
  channel.reset();
  EXPECT_TRUE(weak.expired());
  open.close_all();
}

}  // namespace
}  // namespace jetperf::daemon
