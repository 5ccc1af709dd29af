// Migrations: a fresh database reaches the newest schema; every earlier schema upgrades to it with
// its rows intact; a failing migration leaves the previous version; a newer schema is refused.
#include <jetperf/store/migrations.hpp>

#include <set>
#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/store/database.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::store {
namespace {

// A raw connection, as migrate() takes one: the tests drive the schema below the database class.
class raw_db {
 public:
  explicit raw_db(const std::string& path = ":memory:") {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("open failed");
    exec("PRAGMA foreign_keys=ON");
  }
  ~raw_db() { sqlite3_close_v2(db_); }
  sqlite3* get() const { return db_; }
  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "?";
      sqlite3_free(err);
      throw std::runtime_error(msg + " in " + sql);
    }
  }
  std::int64_t scalar(const std::string& sql) {
    statement st(db_, sql);
    return st.step() ? st.column_int(0) : -1;
  }
  std::set<std::pair<std::string, std::string>> objects() {
    std::set<std::pair<std::string, std::string>> out;
    statement st(db_, "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'");
    while (st.step()) out.emplace(st.column_text(0), st.column_text(1));
    return out;
  }
  bool has_table(const std::string& name) {
    return scalar("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '" + name + "'") == 1;
  }

 private:
  sqlite3* db_ = nullptr;
};

int latest() { return embedded_migrations().back().version; }

// Rows of every table that exists at this point, written with the columns the first schema had,
// so that any later migration must carry them over.
void insert_representative(raw_db& db) {
  if (db.has_table("jobs")) {
    db.exec("INSERT INTO jobs (id, kind, state, spec_json, created_ns, points_total, estimate_s) "
            "VALUES (7, 'gemm_sweep', 'running', '{\"m\":64}', 1000, 4, 2.5)");
    db.exec("INSERT INTO job_tags (job_id, tag) VALUES (7, 'nightly')");
    db.exec("INSERT INTO points (job_id, idx, status, params_json, metrics_json, t_start_ns, t_end_ns) "
            "VALUES (7, 0, 'ok', '{\"m\":64}', '{\"power_w\":5.5}', 10, 20)");
    db.exec("INSERT INTO events (job_id, t_ns, type, data_json) VALUES (7, 15, 'state', '{}')");
  }
  if (db.has_table("channels"))
    db.exec("INSERT INTO channels (id, name, unit, source) VALUES (3, 'rail.VDD_IN.power', 'W', 'sim')");
  if (db.has_table("snapshots"))
    db.exec("INSERT INTO snapshots (job_id, created_ns, reason, state_json) VALUES (7, 5, 'job', '{\"gpu\":1}')");
  if (db.has_table("sample_chunks"))
    db.exec("INSERT INTO sample_chunks (job_id, channel_id, t_first_ns, t_last_ns, count, sum, data) "
            "VALUES (7, 3, 1, 1, 1, 2.0, x'01000000000000000000000000000040')");
  if (db.has_table("cost_calibration"))
    db.exec("INSERT INTO cost_calibration (scope, kind, predicted_s, actual_s) VALUES ('sim:orin-agx', 'gemm', 10, 25)");
}

TEST(migrations, embedded_list_is_ordered_and_named) {
  const auto& all = embedded_migrations();
  ASSERT_GE(all.size(), 2u);
  EXPECT_EQ(all.front().version, 1);
  EXPECT_EQ(all.front().name, "0001_initial");
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_EQ(all[i].version, all[i - 1].version + 1);
  for (const auto& m : all) EXPECT_FALSE(m.sql.empty()) << m.name;
}

TEST(migrations, fresh_database_reaches_newest_schema) {
  raw_db db;
  EXPECT_EQ(migrate(db.get(), embedded_migrations()), latest());
  EXPECT_EQ(db.scalar("PRAGMA user_version"), latest());
  for (const char* t : {"jobs", "job_tags", "points", "channels", "snapshots", "events", "sample_chunks"})
    EXPECT_TRUE(db.has_table(t)) << t;
  EXPECT_EQ(db.scalar("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND "
                      "name = 'sample_chunks_by_job_channel_time'"),
            1);
  // Running it again is a no-op.
  EXPECT_EQ(migrate(db.get(), embedded_migrations()), latest());
}

TEST(migrations, up_to_stops_at_the_requested_version) {
  raw_db db;
  EXPECT_EQ(migrate(db.get(), embedded_migrations(), 1), 1);
  EXPECT_EQ(db.scalar("PRAGMA user_version"), 1);
  EXPECT_TRUE(db.has_table("jobs"));
  EXPECT_FALSE(db.has_table("sample_chunks"));
}

TEST(migrations, upgrade_from_every_earlier_version_keeps_rows) {
  raw_db fresh;
  migrate(fresh.get(), embedded_migrations());
  const auto newest_objects = fresh.objects();

  for (int v = 0; v < latest(); ++v) {
    SCOPED_TRACE("from version " + std::to_string(v));
    raw_db db;
    ASSERT_EQ(migrate(db.get(), embedded_migrations(), v), v);
    insert_representative(db);
    ASSERT_EQ(migrate(db.get(), embedded_migrations()), latest());
    EXPECT_EQ(db.objects(), newest_objects);
    if (v >= 1) {
      EXPECT_EQ(db.scalar("SELECT points_total FROM jobs WHERE id = 7"), 4);
      EXPECT_EQ(db.scalar("SELECT COUNT(*) FROM job_tags WHERE job_id = 7 AND tag = 'nightly'"), 1);
      EXPECT_EQ(db.scalar("SELECT t_end_ns FROM points WHERE job_id = 7 AND idx = 0"), 20);
      EXPECT_EQ(db.scalar("SELECT COUNT(*) FROM events WHERE job_id = 7"), 1);
      EXPECT_EQ(db.scalar("SELECT id FROM channels WHERE name = 'rail.VDD_IN.power'"), 3);
      EXPECT_EQ(db.scalar("SELECT COUNT(*) FROM snapshots WHERE restored_ns = 0"), 1);
      // Defaults of the first schema still apply to the old rows.
      EXPECT_EQ(db.scalar("SELECT finished_ns FROM jobs WHERE id = 7"), 0);
      // A job stored before estimates said what they came from: not known ('').
      EXPECT_EQ(db.scalar("SELECT COUNT(*) FROM jobs WHERE id = 7 AND estimate_basis = '' AND estimate_now_basis = ''"), 1);
    }
    if (v >= 5) {
      // The cost model's calibration from before job counts and windows: learned from one job at
      // least, no windows known.
      EXPECT_EQ(db.scalar("SELECT actual_s FROM cost_calibration WHERE scope = 'sim:orin-agx' AND kind = 'gemm'"), 25);
      EXPECT_EQ(db.scalar("SELECT jobs FROM cost_calibration WHERE kind = 'gemm'"), 1);
      EXPECT_EQ(db.scalar("SELECT COUNT(*) FROM cost_calibration WHERE windows = 0 AND window_points = 0"), 1);
    }
    // The new objects work on the upgraded file: a chunk can be written and read.
    db.exec("INSERT OR IGNORE INTO channels (id, name, unit, source) VALUES (3, 'c', 'W', 'sim')");
    db.exec("INSERT INTO sample_chunks (job_id, channel_id, t_first_ns, t_last_ns, count, sum, data) "
            "VALUES (0, 3, 9, 9, 1, 1.0, x'09000000000000000000000000000000')");
    EXPECT_GE(db.scalar("SELECT COUNT(*) FROM sample_chunks WHERE channel_id = 3"), 1);
  }
}

TEST(migrations, database_class_upgrades_an_old_file) {
  test::temp_dir dir;
  const std::string path = dir.file("old.db");
  {
    raw_db db(path);
    migrate(db.get(), embedded_migrations(), 1);
    insert_representative(db);
  }
  database db(path);
  EXPECT_EQ(db.schema_version(), latest());
  statement st(db.handle(), "SELECT kind FROM jobs WHERE id = 7");
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.column_text(0), "gemm_sweep");
}

TEST(migrations, failing_migration_rolls_back_to_previous_version) {
  const std::vector<migration> synthetic = {
      {1, "0001_a", "CREATE TABLE a (x INTEGER);"},
      {2, "0002_b", "CREATE TABLE b (y INTEGER); INSERT INTO a VALUES (1); INSERT INTO no_such_table VALUES (1);"},
      {3, "0003_c", "CREATE TABLE c (z INTEGER);"},
  };
  raw_db db;
  try {
    migrate(db.get(), synthetic);
    FAIL() << "expected store_error";
  } catch (const store_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("0002_b"), std::string::npos) << msg;
    EXPECT_NE(msg.find("no_such_table"), std::string::npos) << msg;
  }
  EXPECT_EQ(db.scalar("PRAGMA user_version"), 1);
  EXPECT_TRUE(db.has_table("a"));
  EXPECT_FALSE(db.has_table("b"));
  EXPECT_FALSE(db.has_table("c"));
  EXPECT_EQ(db.scalar("SELECT COUNT(*) FROM a"), 0);
  // The connection is usable and not left inside a transaction.
  EXPECT_NE(sqlite3_get_autocommit(db.get()), 0);
  db.exec("INSERT INTO a VALUES (2)");
  EXPECT_EQ(db.scalar("SELECT COUNT(*) FROM a"), 1);
}

TEST(migrations, newer_schema_is_refused) {
  raw_db db;
  db.exec("PRAGMA user_version = 999");
  try {
    migrate(db.get(), embedded_migrations());
    FAIL() << "expected store_error";
  } catch (const store_error& e) {
    EXPECT_NE(std::string(e.what()).find("newer"), std::string::npos) << e.what();
  }
  EXPECT_EQ(db.scalar("PRAGMA user_version"), 999);
}

TEST(migrations, out_of_order_list_is_refused) {
  raw_db db;
  const std::vector<migration> bad = {{2, "0002_x", "SELECT 1;"}, {1, "0001_y", "SELECT 1;"}};
  EXPECT_THROW(migrate(db.get(), bad), store_error);
  EXPECT_EQ(db.scalar("PRAGMA user_version"), 0);
}

}  // namespace
}  // namespace jetperf::store
