#pragma once
// The SQLite database: one file, WAL mode, busy timeout, foreign keys, schema migrated at open.
// One connection shared by the daemon's threads behind a mutex; statements are short and
// batched, so a second connection is not worth its complexity.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace jetperf::store {

/// Throws disk_full where `db`'s last error is SQLITE_FULL, store_error with `message` otherwise.
[[noreturn]] void throw_sqlite_failure(sqlite3* db, const std::string& message);

/// A prepared statement with typed binds (1-based) and column reads (0-based).
class statement {
 public:
  statement(sqlite3* db, const std::string& sql);
  ~statement();
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;

  statement& bind(int index, std::int64_t value);
  /// Resolves bind(i, 42), which is otherwise ambiguous between int64 and double.
  statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  statement& bind(int index, double value);
  statement& bind(int index, const std::string& value);
  statement& bind_null(int index);
  /// Binds a copy of `size` bytes as a BLOB.
  statement& bind_blob(int index, const void* data, std::size_t size);
  /// Steps once; true while a row is available.
  bool step();
  /// Runs a statement that returns no rows.
  void run();
  void reset();

  std::int64_t column_int(int col) const;
  double column_double(int col) const;
  std::string column_text(int col) const;
  bool column_is_null(int col) const;
  /// The column as a BLOB, valid until the next step/reset; nullptr for an empty or NULL value.
  const unsigned char* column_blob(int col) const;
  std::size_t column_bytes(int col) const;
  /// The SQL text, for error messages.
  std::string sql() const;

 private:
  [[noreturn]] void fail(const std::string& what) const;

  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

class database {
 public:
  /// Opens (creating the file and its parent directories as needed) and migrates to the newest
  /// schema. ":memory:" is accepted for tests. Throws store_error naming the path when the file
  /// cannot be opened or its schema is newer than this build knows.
  explicit database(const std::string& path);
  ~database();
  database(const database&) = delete;
  database& operator=(const database&) = delete;

  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }
  /// Runs SQL without results (several statements allowed).
  void exec(const std::string& sql);
  /// Runs fn inside BEGIN IMMEDIATE ... COMMIT, rolling back when it throws. Holds the mutex.
  /// Nested calls become SAVEPOINTs, so a store method may be called inside a caller's transaction.
  void transaction(const std::function<void()>& fn);
  /// The lock every store takes around its statements.
  std::recursive_mutex& mutex() const { return mutex_; }
  int schema_version() const;
  std::int64_t last_insert_id() const;
  /// Rows changed by the most recent INSERT, UPDATE or DELETE.
  std::int64_t changes() const;

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  mutable std::recursive_mutex mutex_;
};

}  // namespace jetperf::store
