// The database: pragmas at open, transactions (commit, rollback, nesting), errors that name the
// SQL and the file, refusal of a newer schema, and durability across a reopen.
#include <jetperf/store/database.hpp>

#include <stdexcept>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/store/migrations.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::store {
namespace {

std::int64_t scalar(database& db, const std::string& sql) {
  statement st(db.handle(), sql);
  return st.step() ? st.column_int(0) : -1;
}

std::string text(database& db, const std::string& sql) {
  statement st(db.handle(), sql);
  return st.step() ? st.column_text(0) : "";
}

TEST(database, file_database_has_the_documented_pragmas) {
  test::temp_dir dir;
  database db(dir.file("j.db"));
  EXPECT_EQ(text(db, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(scalar(db, "PRAGMA synchronous"), 1);  // NORMAL
  EXPECT_EQ(scalar(db, "PRAGMA busy_timeout"), 5000);
  EXPECT_EQ(scalar(db, "PRAGMA foreign_keys"), 1);
  EXPECT_EQ(db.schema_version(), embedded_migrations().back().version);
  EXPECT_EQ(db.path(), dir.file("j.db"));
}

TEST(database, memory_database_is_migrated) {
  database db(":memory:");
  EXPECT_EQ(db.schema_version(), embedded_migrations().back().version);
  EXPECT_EQ(scalar(db, "PRAGMA foreign_keys"), 1);
}

TEST(database, creates_missing_parent_directories) {
  test::temp_dir dir;
  database db(dir.file("a/b/j.db"));
  EXPECT_EQ(db.schema_version(), embedded_migrations().back().version);
}

TEST(database, open_failure_names_the_path) {
  test::temp_dir dir;
  // A directory cannot be opened as a database file.
  try {
    database db(dir.path());
    FAIL() << "expected store_error";
  } catch (const store_error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.path()), std::string::npos) << e.what();
  }
  EXPECT_THROW(database(""), store_error);
}

TEST(database, a_file_that_is_not_a_database_is_refused_with_its_path) {
  test::temp_dir dir;
  const std::string path = dir.file("garbage.db");
  test::write_file(path, std::string(8192, 'x'));
  try {
    database db(path);
    FAIL() << "expected store_error";
  } catch (const store_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(database, refuses_a_schema_newer_than_this_build) {
  test::temp_dir dir;
  const std::string path = dir.file("new.db");
  {
    database db(path);
    db.exec("PRAGMA user_version = 9999");
  }
  try {
    database db(path);
    FAIL() << "expected store_error";
  } catch (const store_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("newer"), std::string::npos) << msg;
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
  }
}

TEST(database, bad_sql_names_the_statement) {
  database db(":memory:");
  try {
    statement st(db.handle(), "SELEKT 1");
    FAIL() << "expected store_error";
  } catch (const store_error& e) {
    EXPECT_NE(std::string(e.what()).find("SELEKT 1"), std::string::npos) << e.what();
  }
  try {
    db.exec("INSERT INTO nowhere VALUES (1)");
    FAIL() << "expected store_error";
  } catch (const store_error& e) {
    EXPECT_NE(std::string(e.what()).find("nowhere"), std::string::npos) << e.what();
  }
}

TEST(database, constraint_failure_in_step_is_a_store_error) {
  database db(":memory:");
  statement st(db.handle(), "INSERT INTO channels (name, unit, source) VALUES (?, 'W', 's')");
  st.bind(1, std::string("x"));
  st.run();
  st.bind(1, std::string("x"));
  try {
    st.run();
    FAIL() << "expected store_error";
  } catch (const store_error& e) {
    EXPECT_NE(std::string(e.what()).find("UNIQUE"), std::string::npos) << e.what();
  }
  // The statement is usable again after the failure.
  st.bind(1, std::string("y"));
  st.run();
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM channels"), 2);
}

TEST(database, statement_binds_and_reads_every_type) {
  database db(":memory:");
  db.exec("CREATE TABLE t (i INTEGER, d REAL, s TEXT, b BLOB, n INTEGER)");
  statement ins(db.handle(), "INSERT INTO t VALUES (?, ?, ?, ?, ?)");
  const unsigned char bytes[] = {1, 2, 0, 255};
  ins.bind(1, std::int64_t{1} << 40).bind(2, 2.5).bind(3, std::string("h\0i", 3)).bind_blob(4, bytes, 4).bind_null(5);
  ins.run();
  ins.bind(1, 42);  // a plain int
  ins.run();
  EXPECT_EQ(db.last_insert_id(), 2);
  statement sel(db.handle(), "SELECT i, d, s, b, n FROM t ORDER BY rowid");
  ASSERT_TRUE(sel.step());
  EXPECT_EQ(sel.column_int(0), std::int64_t{1} << 40);
  EXPECT_DOUBLE_EQ(sel.column_double(1), 2.5);
  EXPECT_EQ(sel.column_text(2), std::string("h\0i", 3));
  ASSERT_EQ(sel.column_bytes(3), 4u);
  EXPECT_EQ(sel.column_blob(3)[3], 255);
  EXPECT_TRUE(sel.column_is_null(4));
  EXPECT_FALSE(sel.column_is_null(0));
  ASSERT_TRUE(sel.step());
  EXPECT_EQ(sel.column_int(0), 42);
  EXPECT_FALSE(sel.step());
}

TEST(database, transaction_commits) {
  database db(":memory:");
  db.exec("CREATE TABLE t (x INTEGER)");
  db.transaction([&] { db.exec("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)"); });
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM t"), 2);
  EXPECT_NE(sqlite3_get_autocommit(db.handle()), 0);
}

TEST(database, transaction_rolls_back_on_exception) {
  database db(":memory:");
  db.exec("CREATE TABLE t (x INTEGER)");
  EXPECT_THROW(db.transaction([&] {
    db.exec("INSERT INTO t VALUES (1)");
    throw std::runtime_error("boom");
  }),
               std::runtime_error);
  EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM t"), 0);
  EXPECT_NE(sqlite3_get_autocommit(db.handle()), 0);
}

TEST(database, nested_transaction_rolls_back_only_the_inner_part) {
  database db(":memory:");
  db.exec("CREATE TABLE t (x INTEGER)");
  db.transaction([&] {
    db.exec("INSERT INTO t VALUES (1)");
    EXPECT_THROW(db.transaction([&] {
      db.exec("INSERT INTO t VALUES (2)");
      throw std::runtime_error("inner");
    }),
                 std::runtime_error);
    db.transaction([&] { db.exec("INSERT INTO t VALUES (3)"); });
  });
  EXPECT_EQ(text(db, "SELECT group_concat(x) FROM (SELECT x FROM t ORDER BY x)"), "1,3");
}

TEST(database, reopened_file_keeps_its_data) {
  test::temp_dir dir;
  const std::string path = dir.file("durable.db");
  {
    database db(path);
    db.transaction([&] { db.exec("INSERT INTO channels (name, unit, source) VALUES ('temp.CPU', 'C', 'sysfs')"); });
  }
  database again(path);
  EXPECT_EQ(text(again, "SELECT unit FROM channels WHERE name = 'temp.CPU'"), "C");
  EXPECT_EQ(again.schema_version(), embedded_migrations().back().version);
}

}  // namespace
}  // namespace jetperf::store
