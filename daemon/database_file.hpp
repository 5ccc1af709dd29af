#pragma once
// The daemon's database, private to the account that runs it whoever starts it: the file (and the
// WAL and shared-memory files SQLite gives the same mode) 0600, a directory the daemon creates 0700.
// It holds the board's measurements, the jobs' commands and their outputs' paths.
#include <memory>
#include <string>

#include <jetperf/store/database.hpp>

namespace jetperf::daemon {

/// Opens (creating) the database at `path` (":memory:" as SQLite's), made private first.
std::unique_ptr<store::database> open_private_database(const std::string& path);

}  // namespace jetperf::daemon
