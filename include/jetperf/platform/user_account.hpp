#pragma once
// The unprivileged account a researcher's program runs as (command jobs): looked up once, before
// any fork, so that the child only calls async-signal-safe functions between fork and execve.
#include <string>
#include <vector>

#include <sys/types.h>

namespace jetperf::platform {

struct user_account {
  std::string name;
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;  ///< supplementary groups (getgrouplist)
  std::string home;
  std::string shell;
};

/// Looks up `name` (or a numeric uid). Throws platform_error for an unknown account, for root
/// (uid 0) and for an account in root's group (primary or supplementary gid 0): a program the
/// daemon runs for a client never runs with the daemon's privileges.
user_account lookup_unprivileged_account(const std::string& name);

/// Throws platform_error for root (uid 0), for a member of root's group (primary or
/// supplementary gid 0) and for a member of a group that grants root's powers (sudo, wheel,
/// docker, disk, adm, shadow, ...: looked up by name), naming the group.
void require_unprivileged(const user_account& a);

/// The account this process runs as (effective uid).
user_account current_account();

}  // namespace jetperf::platform
