// What an unprivileged account can reach, asked as that account on a thread of its own: the
// daemon's other threads keep their identity, a closed directory on the way is named with its
// mode and owner, and an error inside the check reaches the caller.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/account_access.hpp>
#include <jetperf/platform/user_account.hpp>
#include <support/temp_dir.hpp>

using namespace jetperf;
using namespace jetperf::platform;

namespace {

// The account programs run as, as a daemon sees it: nobody when the test is root (it switches),
// the test's own account otherwise (no switch). `closed` is a mode that keeps it out of a
// directory the test owns: root's 0700 keeps nobody out; the owner needs 0000.
struct program_account {
  user_account account;
  bool switch_identity;
  mode_t closed;
};

program_account program_account_here() {
  if (::geteuid() == 0) return {lookup_unprivileged_account("nobody"), true, 0700};
  return {current_account(), false, 0000};
}

// The Uid: line of /proc/self/task/<tid>/status for the calling thread: real, effective, saved, fs.
std::string uid_line() {
  std::ifstream in("/proc/thread-self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("Uid:", 0) == 0) return line;
  return {};
}

}  // namespace

TEST(account_access, the_check_runs_as_the_account_and_the_caller_keeps_its_identity) {
  const auto a = program_account_here();
  const auto before = uid_line();
  ASSERT_FALSE(before.empty());
  uid_t inside = 12345;
  gid_t inside_gid = 12345;
  as_account(a.account, a.switch_identity, [&] {
    inside = ::geteuid();
    inside_gid = ::getegid();
  });
  EXPECT_EQ(inside, a.account.uid);
  EXPECT_EQ(inside_gid, a.account.gid);
  EXPECT_EQ(uid_line(), before);
  EXPECT_EQ(::geteuid(), ::getuid());
}

TEST(account_access, an_error_inside_the_check_reaches_the_caller) {
  const auto a = program_account_here();
  EXPECT_THROW(as_account(a.account, a.switch_identity, [] { throw validation_error("spec.cwd", "no"); }),
               validation_error);
  if (::geteuid() != 0) {
    // Only root can take another account's identity: the kernel's refusal is an error, not a
    // check run as the wrong account.
    EXPECT_THROW(as_account(lookup_unprivileged_account("nobody"), true, [] {}), platform_error);
  }
}

TEST(account_access, the_first_directory_the_account_cannot_search_is_named_with_its_mode_and_owner) {
  const auto a = program_account_here();
  test::temp_dir dir;
  const auto home = dir.file("home");
  test::write_file(home + "/project/train.sh", "#!/bin/sh\n");
  ::chmod(dir.path().c_str(), 0755);
  ::chmod(home.c_str(), a.closed);
  std::string blocked_deep, blocked_missing, blocked_open, mode;
  as_account(a.account, a.switch_identity, [&] {
    blocked_deep = blocking_directory(home + "/project/train.sh");
    blocked_missing = blocking_directory(home + "/no-such/thing");
    blocked_open = blocking_directory(dir.path() + "/other");
    mode = mode_and_owner(home);
  });
  ::chmod(home.c_str(), 0755);
  char closed[8];
  std::snprintf(closed, sizeof closed, "%04o", static_cast<unsigned>(a.closed));
  const auto owner = current_account().name;
  EXPECT_EQ(blocked_deep, home + " is " + closed + ", owner " + owner);
  // What lies behind a closed directory, present or not, reads the same: nothing is probed.
  EXPECT_EQ(blocked_missing, blocked_deep);
  EXPECT_EQ(blocked_open, "");
  EXPECT_EQ(mode, std::string("mode ") + closed + ", owner " + owner);
}
