// command_policy_of over directories on disk: the runtime directory, where root makes each run's
// marker socket and hands it to the program's account, must be jetperfd's alone (issue 35, 7).
#include <gtest/gtest.h>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include <support/temp_dir.hpp>

#include "command_setup.hpp"

namespace jetperf::daemon {
namespace {

using test::temp_dir;

// Command jobs on, as this test's own account would run them: as root, programs run as nobody;
// otherwise as the account itself.
daemon_config command_config(const std::string& runtime_dir) {
  daemon_config c;
  c.command_jobs = true;
  if (::geteuid() == 0) {
    c.command_user = "nobody";
  } else {
    const passwd* pw = ::getpwuid(::geteuid());
    c.command_user = pw ? pw->pw_name : "";
  }
  c.runtime_dir = runtime_dir;
  return c;
}

std::string refusal(const daemon_config& c) {
  try {
    command_policy_of(c);
  } catch (const config_error& e) {
    return e.what();
  }
  return "";
}

TEST(command_setup, the_runtime_directory_is_made_private_and_kept_so) {
  temp_dir t;
  // Absent: made, 0755, ours.
  const auto made = t.file("run");
  const auto policy = command_policy_of(command_config(made));
  EXPECT_TRUE(policy.enabled);
  EXPECT_EQ(policy.runtime_dir, made);
  struct stat st {};
  ASSERT_EQ(::lstat(made.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_mode & 07777, 0755u);
  EXPECT_EQ(st.st_uid, ::geteuid());
}

TEST(command_setup, a_runtime_directory_others_may_write_in_is_refused) {
  temp_dir t;
  // /tmp's mode: world-writable with the sticky bit.
  const auto shared = t.file("shared");
  ASSERT_EQ(::mkdir(shared.c_str(), 0755), 0);
  ASSERT_EQ(::chmod(shared.c_str(), 01777), 0);
  auto why = refusal(command_config(shared));
  EXPECT_NE(why.find("runtime_dir: '" + shared + "' is writable by others (mode 1777)"), std::string::npos) << why;
  // Group-writable too.
  ASSERT_EQ(::chmod(shared.c_str(), 0775), 0);
  why = refusal(command_config(shared));
  EXPECT_NE(why.find("(mode 0775)"), std::string::npos) << why;
  // A symbolic link to a good directory: the link could be pointed elsewhere.
  const auto good = t.file("good");
  ASSERT_EQ(::mkdir(good.c_str(), 0755), 0);
  const auto link = t.file("link");
  ASSERT_EQ(::symlink(good.c_str(), link.c_str()), 0);
  why = refusal(command_config(link));
  EXPECT_NE(why.find("runtime_dir: '" + link + "' is not a directory"), std::string::npos) << why;
  // A relative path.
  why = refusal(command_config("run"));
  EXPECT_NE(why.find("runtime_dir: 'run' is not an absolute path"), std::string::npos) << why;
  // The good one is accepted.
  EXPECT_TRUE(command_policy_of(command_config(good)).enabled);
}

TEST(command_setup, a_runtime_directory_another_account_owns_is_refused) {
  if (::geteuid() != 0) {
    // Only root can make a directory another account owns; as anyone else, the check is on the
    // owner's uid either way, and the test above covers the mode.
    temp_dir t;
    EXPECT_TRUE(command_policy_of(command_config(t.file("own"))).enabled);
    return;
  }
  temp_dir t;
  const auto theirs = t.file("theirs");
  ASSERT_EQ(::mkdir(theirs.c_str(), 0755), 0);
  const passwd* nobody = ::getpwnam("nobody");
  ASSERT_NE(nobody, nullptr);
  ASSERT_EQ(::chown(theirs.c_str(), nobody->pw_uid, nobody->pw_gid), 0);
  const auto why = refusal(command_config(theirs));
  EXPECT_NE(why.find("runtime_dir: '" + theirs + "' belongs to uid " + std::to_string(nobody->pw_uid) +
                     ", not to jetperfd's (uid 0)"),
            std::string::npos)
      << why;
}

}  // namespace
}  // namespace jetperf::daemon
