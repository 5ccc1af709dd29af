#include <jetperf/platform/account_access.hpp>

#include <pwd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <thread>
#include <vector>

#include <jetperf/common/errors.hpp>

namespace jetperf::platform {

namespace {

// Raw system calls, not glibc's setgroups/setresgid/setresuid: glibc applies those to every
// thread of the process (POSIX's rule), which would drop the daemon's privileges as a whole. The
// kernel keeps credentials per thread, so this thread alone becomes the account, and its
// capabilities (CAP_DAC_OVERRIDE among them) go with its uid 0.
void become(const user_account& account) {
  std::vector<gid_t> groups = account.groups.empty() ? std::vector<gid_t>{account.gid} : account.groups;
  if (::syscall(SYS_setgroups, groups.size(), groups.data()) != 0)
    throw platform_error("cannot take the groups of account '" + account.name + "': " + std::strerror(errno));
  if (::syscall(SYS_setresgid, account.gid, account.gid, account.gid) != 0)
    throw platform_error("cannot take the group of account '" + account.name + "': " + std::strerror(errno));
  if (::syscall(SYS_setresuid, account.uid, account.uid, account.uid) != 0)
    throw platform_error("cannot become account '" + account.name + "': " + std::strerror(errno));
}

std::string owner_name(uid_t uid) {
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(uid, &pw, buf.data(), buf.size(), &found) == 0 && found && found->pw_name) return found->pw_name;
  return "uid " + std::to_string(uid);
}

}  // namespace

void as_account(const user_account& account, bool switch_identity, const std::function<void()>& check) {
  std::exception_ptr failure;
  std::thread t([&] {
    try {
      if (switch_identity) become(account);
      check();
    } catch (...) {
      failure = std::current_exception();
    }
  });
  t.join();
  if (failure) std::rethrow_exception(failure);
}

std::string mode_and_owner(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::strerror(errno);
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  return std::string("mode ") + mode + ", owner " + owner_name(st.st_uid);
}

std::string blocking_directory(const std::string& path) {
  if (path.empty() || path.front() != '/') return {};
  // Each directory on the way, from the root down: the first one this identity cannot search
  // is where the kernel stops a lookup of `path` (its parent was searchable, so it can be
  // stat'ed to say why).
  for (std::size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    const auto dir = path.substr(0, slash);
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) return {};
    if (S_ISDIR(st.st_mode) && ::access(dir.c_str(), X_OK) != 0) {
      char mode[8];
      std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
      return dir + " is " + mode + ", owner " + owner_name(st.st_uid);
    }
  }
  return {};
}

}  // namespace jetperf::platform
