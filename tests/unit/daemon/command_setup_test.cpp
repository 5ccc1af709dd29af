// command_policy_of over directories on disk: the runtime directory, where root makes each run's
// marker socket and hands it to the program's account, must be jetperfd's alone (issue 35, 7).
#include <gtest/gtest.h>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include <jetperf/platform/meminfo.hpp>

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

// A run's ceilings: the configured ones, or this host's memory less a quarter (at least 1 GiB
// left for the daemon and the board); the policy carries them to every run.
TEST(command_setup, the_runs_ceilings_come_from_the_config_or_leave_the_host_a_quarter_of_its_memory) {
  temp_dir t;
  auto c = command_config(t.file("run"));
  c.command_max_processes = 300;
  c.command_max_memory_mb = 1500;
  const auto set = command_policy_of(c).limits;
  EXPECT_EQ(set.max_processes, 300u);
  EXPECT_EQ(set.max_memory_bytes, 1500ull << 20);
  c.command_max_memory_mb = 0;
  const auto total = platform::host_memory_info().total_bytes;
  ASSERT_TRUE(total.has_value());
  const auto keep = std::max<std::int64_t>(*total / 4, 1ll << 30);
  EXPECT_EQ(run_limits_of(c).max_memory_bytes, static_cast<std::uint64_t>(std::max<std::int64_t>(*total - keep, 256ll << 20)));
  EXPECT_LT(run_limits_of(c).max_memory_bytes, static_cast<std::uint64_t>(*total));
}

}  // namespace
}  // namespace jetperf::daemon
