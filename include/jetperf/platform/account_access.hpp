#pragma once
// What an unprivileged account can reach on this machine, asked of the kernel as that account
// (command jobs): a program the daemon resolves as root may sit in a home directory (0700, or
// 0750 on Ubuntu >= 21.04) that the account cannot traverse, and would fail only at run time,
// after the board was set up. The checks run on a thread of their own that holds the account's
// uid, gid and groups, so the answer is the one execve and chdir will give the program; and a
// root-only path answers as the account sees it, so it cannot be probed through a submission.
#include <functional>
#include <string>

#include <jetperf/platform/user_account.hpp>

namespace jetperf::platform {

/// Runs `check` as `account` (switch_identity) or as this process (the daemon already is that
/// account), on a short-lived thread whose credentials alone change. An exception from `check`
/// is rethrown here; a switch the kernel refuses is a platform_error.
void as_account(const user_account& account, bool switch_identity, const std::function<void()>& check);

/// Inside as_account: why the calling identity cannot reach `path` through its directories:
/// the first directory on the way it cannot search, with its mode and owner
/// ("/home/ana is 0750, owner ana"); empty when every directory on the way can be searched.
std::string blocking_directory(const std::string& path);

/// Inside as_account: `path`'s mode and owner as they explain a refusal ("mode 0644, owner ana").
std::string mode_and_owner(const std::string& path);

}  // namespace jetperf::platform
