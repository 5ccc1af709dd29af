#include <jetperf/store/database.hpp>

#include <atomic>
#include <filesystem>
#include <system_error>

#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/store/migrations.hpp>

namespace jetperf::store {

namespace {
bool is_memory(const std::string& path) { return path == ":memory:"; }

void create_parent(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) throw store_error("cannot create the directory of database " + path + ": " + ec.message());
}
}  // namespace

database::database(const std::string& path) : path_(path) {
  if (path_.empty()) throw store_error("database path is empty");
  if (!is_memory(path_)) create_parent(path_);
  if (sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw store_error("cannot open database " + path_ + ": " + msg);
  }
  try {
    sqlite3_extended_result_codes(db_, 1);
    // Before anything else touches the file, so that a locked database waits rather than fails.
    sqlite3_busy_timeout(db_, 5000);
    {
      // A new database gives the pages retention frees back to the file system a few at a time
      // (retention_pass); this can only be chosen before its first table.
      statement tables(db_, "SELECT count(*) FROM sqlite_master");
      if (tables.step() && tables.column_int(0) == 0) exec("PRAGMA auto_vacuum=INCREMENTAL");
    }
    if (!is_memory(path_)) {
      statement wal(db_, "PRAGMA journal_mode=WAL");
      const std::string mode = wal.step() ? wal.column_text(0) : std::string();
      // Some file systems (e.g. network mounts) cannot hold the WAL's shared memory.
      if (mode != "wal") spdlog::warn("database {}: journal mode is '{}', not WAL", path_, mode);
    }
    exec("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;");
    const int version = migrate(db_, embedded_migrations());
    spdlog::debug("database {} at schema version {}", path_, version);
  } catch (const store_error& e) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
    const std::string what = e.what();
    // Every message names the file, whatever layer produced it.
    throw store_error(what.find(path_) == std::string::npos ? "database " + path_ + ": " + what : what);
  } catch (...) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw;
  }
}

database::~database() {
  // close_v2 defers the close until every statement is finalized instead of failing.
  if (db_) sqlite3_close_v2(db_);
}

void database::exec(const std::string& sql) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    throw_sqlite_failure(db_, "SQLite exec failed for '" + sql + "' on " + path_ + ": " + msg);
  }
}

void database::transaction(const std::function<void()>& fn) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const bool nested = sqlite3_get_autocommit(db_) == 0;
  if (!nested) {
    exec("BEGIN IMMEDIATE");
    try {
      fn();
      exec("COMMIT");
    } catch (...) {
      // SQLite may have rolled back by itself (e.g. on SQLITE_FULL); a second ROLLBACK would fail.
      if (sqlite3_get_autocommit(db_) == 0) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    return;
  }
  // Savepoint names only need to be unique among the nesting levels open at once.
  static std::atomic<long> counter{0};
  const std::string name = "jetperf_sp" + std::to_string(++counter);
  exec("SAVEPOINT " + name);
  try {
    fn();
    exec("RELEASE " + name);
  } catch (...) {
    if (sqlite3_get_autocommit(db_) == 0) {
      sqlite3_exec(db_, ("ROLLBACK TO " + name).c_str(), nullptr, nullptr, nullptr);
      sqlite3_exec(db_, ("RELEASE " + name).c_str(), nullptr, nullptr, nullptr);
    }
    throw;
  }
}

int database::schema_version() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  statement st(db_, "PRAGMA user_version");
  return st.step() ? static_cast<int>(st.column_int(0)) : 0;
}

std::int64_t database::last_insert_id() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return sqlite3_last_insert_rowid(db_);
}

std::int64_t database::changes() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return sqlite3_changes(db_);
}

}  // namespace jetperf::store
