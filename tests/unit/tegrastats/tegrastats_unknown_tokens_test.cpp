#include <jetperf/tegrastats/tegrastats_unknown_tokens.hpp>

#include <string>

#include <gtest/gtest.h>

namespace jetperf::telemetry {
namespace {

TEST(tegrastats_unknown_tokens, first_time_once_per_name_and_bounded) {
  tegrastats_unknown_tokens seen(3);
  EXPECT_TRUE(seen.first_time("FOO"));
  EXPECT_FALSE(seen.first_time("FOO"));
  EXPECT_TRUE(seen.first_time("BAR"));
  EXPECT_TRUE(seen.first_time(std::string(100, 'L')));
  // Remembered by its first 32 characters: the same long name is not new.
  EXPECT_FALSE(seen.first_time(std::string(40, 'L')));
  EXPECT_TRUE(seen.full());
  // A full table reports no new name, however many come: memory stays bounded.
  for (int i = 0; i < 1000; ++i) EXPECT_FALSE(seen.first_time("N" + std::to_string(i)));
  EXPECT_FALSE(seen.first_time("FOO"));
  EXPECT_EQ(seen.counts().size(), 3u);
  EXPECT_EQ(seen.counts()[0], (std::pair<std::string, std::uint64_t>{"FOO", 3}));
  EXPECT_EQ(seen.counts()[2].first.size(), tegrastats_unknown_tokens::k_max_name_length);
  EXPECT_EQ(seen.counts()[2].second, 2u);
  EXPECT_EQ(seen.untracked(), 1000u);
  EXPECT_EQ(seen.total(), 1006u);
}

}  // namespace
}  // namespace jetperf::telemetry
