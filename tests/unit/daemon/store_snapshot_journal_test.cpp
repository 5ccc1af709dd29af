#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/board_controller.hpp>
#include <jetperf/store/database.hpp>

#include <support/temp_dir.hpp>
#include <unit/platform/board_tree.hpp>

#include "store_snapshot_journal.hpp"

using namespace jetperf::platform;
using jetperf::daemon::store_snapshot_journal;

TEST(store_snapshot_journal, survives_a_restart_through_sqlite) {
  jetperf::test::temp_dir tmp, dbdir;
  jetperf::test::make_board_tree(tmp.path(), jetperf::test::board_profile::xavier_r32);
  const std::string before = jetperf::test::dump_tree(tmp.path());
  const std::string db_path = dbdir.file("jetperf.db");
  {
    jetperf::store::database db(db_path);
    jetperf::store::snapshot_store snapshots(db);
    store_snapshot_journal journal(snapshots);
    board_controller board(sysfs_root(tmp.path()), {}, &journal);
    const auto offer = board.clock_frequencies();
    board.set_clocks({522750000, offer.cpu_khz.front(), offer.emc_hz.back()});
    EXPECT_EQ(jetperf::test::read_file(tmp.path() + "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b/max_freq"),
              "522750000\n");
    auto open = snapshots.oldest_open();
    ASSERT_TRUE(open);
    EXPECT_EQ(open->reason, "api");
    EXPECT_EQ(open->state["gpu"]["max"], 1377000000);
  }
  jetperf::store::database db(db_path);
  jetperf::store::snapshot_store snapshots(db);
  store_snapshot_journal journal(snapshots);
  board_controller board(sysfs_root(tmp.path()), {}, &journal);
  EXPECT_TRUE(board.restore_open_snapshot());
  EXPECT_EQ(jetperf::test::dump_tree(tmp.path()), before);
  EXPECT_FALSE(snapshots.oldest_open());
}

// A snapshot journaled in store/board_state_json.hpp's form that no longer reads is refused as
// such (validation_error "state"), not restored half-way.
TEST(store_snapshot_journal, a_malformed_snapshot_is_refused_when_read_back) {
  jetperf::test::temp_dir dbdir;
  jetperf::store::database db(dbdir.file("jetperf.db"));
  jetperf::store::snapshot_store snapshots(db);
  snapshots.open(0, "api", {{"gpu", {{"min", "x"}}}});
  store_snapshot_journal journal(snapshots);
  EXPECT_THROW(journal.oldest_open(), jetperf::validation_error);
}
