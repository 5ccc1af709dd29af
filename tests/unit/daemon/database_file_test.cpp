// The daemon's database is private whoever starts it (issue 58 item 7): the file 0600, WAL and
// shared-memory files too, a directory it creates 0700, and a database an earlier daemon left
// readable made private.
#include <sys/stat.h>

#include <fstream>

#include <gtest/gtest.h>

#include <support/temp_dir.hpp>

#include "database_file.hpp"

using namespace jetperf;

namespace {
unsigned mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}
}  // namespace

TEST(database_file, a_new_database_and_its_directory_are_private) {
  test::temp_dir tmp;
  const auto dir = tmp.path() + "/state";
  const auto path = dir + "/jetperf.db";
  const auto old_mask = ::umask(022);  // a default that would leave both readable
  {
    auto db = daemon::open_private_database(path);
    ASSERT_TRUE(db);
  }
  ::umask(old_mask);
  EXPECT_EQ(mode_of(dir), 0700u);
  EXPECT_EQ(mode_of(path), 0600u);
  if (::access((path + "-wal").c_str(), F_OK) == 0) EXPECT_EQ(mode_of(path + "-wal"), 0600u);
}

TEST(database_file, a_readable_database_left_before_is_made_private) {
  test::temp_dir tmp;
  const auto path = tmp.path() + "/jetperf.db";
  std::ofstream(path).close();
  std::ofstream(path + "-wal").close();
  ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
  ASSERT_EQ(::chmod((path + "-wal").c_str(), 0644), 0);
  const auto dir_mode = mode_of(tmp.path());
  // An empty WAL is no database's: SQLite resets it.
  auto db = daemon::open_private_database(path);
  EXPECT_EQ(mode_of(path), 0600u);
  EXPECT_EQ(mode_of(path + "-wal"), 0600u);
  // The directory was there already (a home, /tmp): its mode is the user's choice, left as it was.
  EXPECT_EQ(mode_of(tmp.path()), dir_mode);
}
