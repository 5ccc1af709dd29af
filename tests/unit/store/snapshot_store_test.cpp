// snapshot_store: the journal of board settings taken before a change and closed after a restore.
#include <jetperf/store/snapshot_store.hpp>

#include <gtest/gtest.h>

#include <jetperf/common/clock.hpp>

namespace jetperf::store {
namespace {

using nlohmann::json;

TEST(snapshot_store, open_oldest_open_and_close_all) {
  database db(":memory:");
  snapshot_store snaps(db);
  EXPECT_FALSE(snaps.oldest_open());

  const json first = {{"power_mode", 0}, {"gpu", {{"min_hz", 114750000}, {"max_hz", 1300500000}}}};
  const json second = {{"power_mode", 2}};
  const std::int64_t t0 = wall_ns();
  const auto a = snaps.open(12, "job", first);
  const auto b = snaps.open(0, "api", second);
  EXPECT_NE(a, b);

  auto oldest = snaps.oldest_open();
  ASSERT_TRUE(oldest);
  EXPECT_EQ(oldest->id, a);
  EXPECT_EQ(oldest->job_id, 12);
  EXPECT_EQ(oldest->reason, "job");
  EXPECT_EQ(oldest->state, first);
  EXPECT_GE(oldest->created_ns, t0);
  EXPECT_EQ(oldest->restored_ns, 0);

  snaps.close_all();
  EXPECT_FALSE(snaps.oldest_open());
  const auto closed = snaps.get(b);
  ASSERT_TRUE(closed);
  EXPECT_EQ(closed->state, second);
  EXPECT_EQ(closed->job_id, 0);
  EXPECT_EQ(closed->reason, "api");
  EXPECT_GE(closed->restored_ns, closed->created_ns);
  const std::int64_t restored = closed->restored_ns;

  // A new change after the restore opens a new journal entry; the closed ones stay closed.
  const auto c = snaps.open(13, "job", second);
  EXPECT_EQ(snaps.oldest_open()->id, c);
  snaps.close_all();
  EXPECT_EQ(snaps.get(b)->restored_ns, restored);
  EXPECT_FALSE(snaps.get(c + 100));
}

}  // namespace
}  // namespace jetperf::store
