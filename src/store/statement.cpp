#include <jetperf/store/database.hpp>

#include <sqlite3.h>

#include <jetperf/common/errors.hpp>

namespace jetperf::store {

namespace {
std::string db_name(sqlite3* db) {
  const char* f = db ? sqlite3_db_filename(db, "main") : nullptr;
  return (f && *f) ? f : ":memory:";
}
}  // namespace

namespace {
// A full file system is its own failure: the write succeeds once there is room (resume), and
// a client is told which file system (507) rather than "storage error".
[[noreturn]] void throw_for_code(sqlite3* db, int code, const std::string& message) {
  if ((code & 0xff) == SQLITE_FULL)
    throw disk_full("disk_full: the file system holding " + db_name(db) + " is full (" + message + ")");
  throw store_error(message);
}
}  // namespace

[[noreturn]] void throw_sqlite_failure(sqlite3* db, const std::string& message) {
  throw_for_code(db, db ? sqlite3_extended_errcode(db) : SQLITE_ERROR, message);
}

statement::statement(sqlite3* db, const std::string& sql) : db_(db) {
  if (!db_) throw store_error("cannot prepare SQL on a closed database: " + sql);
  if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK) {
    const std::string msg = sqlite3_errmsg(db_);
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
    throw store_error("SQLite cannot prepare '" + sql + "' on " + db_name(db_) + ": " + msg);
  }
}

statement::~statement() { sqlite3_finalize(stmt_); }

void statement::fail(const std::string& what) const {
  throw_sqlite_failure(db_, "SQLite " + what + " failed for '" + sql() + "' on " + db_name(db_) + ": " + sqlite3_errmsg(db_));
}

std::string statement::sql() const {
  const char* s = sqlite3_sql(stmt_);
  return s ? s : "";
}

statement& statement::bind(int index, std::int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) fail("bind #" + std::to_string(index));
  return *this;
}

statement& statement::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) fail("bind #" + std::to_string(index));
  return *this;
}

statement& statement::bind(int index, const std::string& value) {
  if (sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK)
    fail("bind #" + std::to_string(index));
  return *this;
}

statement& statement::bind_null(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) fail("bind #" + std::to_string(index));
  return *this;
}

statement& statement::bind_blob(int index, const void* data, std::size_t size) {
  // A zero-length blob still needs a non-null pointer, or SQLite stores NULL.
  static const unsigned char empty = 0;
  if (sqlite3_bind_blob64(stmt_, index, size ? data : &empty, size, SQLITE_TRANSIENT) != SQLITE_OK)
    fail("bind #" + std::to_string(index));
  return *this;
}

bool statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  // Read the message before reset() can replace it.
  const std::string msg = "SQLite step failed for '" + sql() + "' on " + db_name(db_) + ": " + sqlite3_errmsg(db_);
  // The error code as the step left it: reset() returns it again but may not keep it.
  const int code = sqlite3_extended_errcode(db_);
  sqlite3_reset(stmt_);
  throw_for_code(db_, code, msg);
}

void statement::run() {
  while (step()) {
  }
  sqlite3_reset(stmt_);
}

void statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::int64_t statement::column_int(int col) const { return sqlite3_column_int64(stmt_, col); }
double statement::column_double(int col) const { return sqlite3_column_double(stmt_, col); }

std::string statement::column_text(int col) const {
  const auto* p = sqlite3_column_text(stmt_, col);
  const int n = sqlite3_column_bytes(stmt_, col);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n)) : std::string();
}

bool statement::column_is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

const unsigned char* statement::column_blob(int col) const {
  return static_cast<const unsigned char*>(sqlite3_column_blob(stmt_, col));
}

std::size_t statement::column_bytes(int col) const {
  return static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col));
}

}  // namespace jetperf::store
