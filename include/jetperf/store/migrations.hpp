#pragma once
// Schema migrations: migrations/NNNN_name.sql, embedded at build time (cmake/embed_migrations.cmake).
#include <string>
#include <vector>

struct sqlite3;

namespace jetperf::store {

struct migration {
  int version;       ///< NNNN of the file name; PRAGMA user_version after it is applied
  std::string name;  ///< file name without .sql
  std::string sql;
};

/// Every migration of this build, ordered by version (generated file).
const std::vector<migration>& embedded_migrations();

/// Applies, in order, each migration whose version is above the database's user_version, each in
/// one transaction together with its user_version bump. Stops at `up_to` when given (tests use it
/// to build every earlier schema). Throws store_error naming the migration that failed.
/// Returns the resulting user_version.
int migrate(sqlite3* db, const std::vector<migration>& all, int up_to = -1);

}  // namespace jetperf::store
