#pragma once
// The SQLite database: one file, WAL mode, busy timeout, foreign keys, schema migrated at open.
// One connection shared by the daemon's threads behind a mutex; statements are short and
// batched, so a second connection is not worth its complexity.
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace jetperf::store {

/// A prepared statement with typed binds (1-based) and column reads (0-based).
class statement {
 public:
  statement(sqlite3* db, const std::string& sql);
  ~statement();
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;

  statement& bind(int index, std::int64_t value);
  statement& bind(int index, double value);
  statement& bind(int index, const std::string& value);
  statement& bind_null(int index);
  /// Steps once; true while a row is available.
  bool step();
  /// Runs a statement that returns no rows.
  void run();
  void reset();

  std::int64_t column_int(int col) const;
  double column_double(int col) const;
  std::string column_text(int col) const;
  bool column_is_null(int col) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

class database {
 public:
  /// Opens (creating parent-less files as needed) and migrates to the newest schema.
  /// ":memory:" is accepted for tests.
  explicit database(const std::string& path);
  ~database();
  database(const database&) = delete;
  database& operator=(const database&) = delete;

  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }
  /// Runs SQL without results (several statements allowed).
  void exec(const std::string& sql);
  /// Runs fn inside BEGIN IMMEDIATE ... COMMIT, rolling back when it throws. Holds the mutex.
  void transaction(const std::function<void()>& fn);
  /// The lock every store takes around its statements.
  std::recursive_mutex& mutex() const { return mutex_; }
  int schema_version() const;
  std::int64_t last_insert_id() const;

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  mutable std::recursive_mutex mutex_;
};

}  // namespace jetperf::store
