#include <jetperf/store/migrations.hpp>

#include <sqlite3.h>

#include <jetperf/common/errors.hpp>

namespace jetperf::store {

namespace {
// Returns the error message, or "" on success.
std::string try_exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) == SQLITE_OK) return {};
  std::string msg = err ? err : sqlite3_errmsg(db);
  sqlite3_free(err);
  return msg.empty() ? "unknown error" : msg;
}

int user_version(sqlite3* db) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, nullptr) != SQLITE_OK)
    throw store_error(std::string("cannot read the schema version: ") + sqlite3_errmsg(db));
  int v = 0;
  const int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) v = sqlite3_column_int(st, 0);
  const std::string msg = sqlite3_errmsg(db);
  sqlite3_finalize(st);
  if (rc != SQLITE_ROW) throw store_error("cannot read the schema version: " + msg);
  return v;
}

void check_order(const std::vector<migration>& all) {
  int previous = 0;
  for (const auto& m : all) {
    if (m.version <= previous)
      throw store_error("migration " + m.name + " is out of order: version " + std::to_string(m.version) +
                        " after " + std::to_string(previous));
    previous = m.version;
  }
}
}  // namespace

int migrate(sqlite3* db, const std::vector<migration>& all, int up_to) {
  if (!db) throw store_error("cannot migrate a closed database");
  check_order(all);
  int current = user_version(db);
  const int known = all.empty() ? 0 : all.back().version;
  if (current > known)
    throw store_error("schema version " + std::to_string(current) + " is newer than this jetperf build knows (" +
                      std::to_string(known) + "); run a newer jetperf or use another database file");
  for (const auto& m : all) {
    if (m.version <= current) continue;
    if (up_to >= 0 && m.version > up_to) break;
    // IMMEDIATE takes the write lock now, so a concurrent opener waits (busy timeout) instead of
    // both applying the same migration.
    if (auto err = try_exec(db, "BEGIN IMMEDIATE"); !err.empty())
      throw store_error("migration " + m.name + " cannot begin: " + err);
    // Another process may have applied it while this one waited for the lock.
    current = user_version(db);
    if (m.version <= current) {
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      continue;
    }
    std::string err = try_exec(db, m.sql);
    if (err.empty()) err = try_exec(db, "PRAGMA user_version = " + std::to_string(m.version));
    if (err.empty()) err = try_exec(db, "COMMIT");
    if (!err.empty()) {
      if (sqlite3_get_autocommit(db) == 0) sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw store_error("migration " + m.name + " failed (schema stays at version " + std::to_string(current) +
                        "): " + err);
    }
    current = m.version;
  }
  return current;
}

}  // namespace jetperf::store
