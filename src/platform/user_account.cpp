#include <jetperf/platform/user_account.hpp>

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <jetperf/common/errors.hpp>

namespace jetperf::platform {

namespace {

user_account of_passwd(const passwd& pw) {
  user_account a;
  a.name = pw.pw_name ? pw.pw_name : "";
  a.uid = pw.pw_uid;
  a.gid = pw.pw_gid;
  a.home = pw.pw_dir ? pw.pw_dir : "";
  a.shell = pw.pw_shell ? pw.pw_shell : "";
  int count = 32;
  for (int attempt = 0; attempt < 4; ++attempt) {
    a.groups.assign(static_cast<std::size_t>(count), 0);
    int n = count;
    if (::getgrouplist(a.name.c_str(), a.gid, a.groups.data(), &n) >= 0) {
      a.groups.resize(static_cast<std::size_t>(n));
      return a;
    }
    count = n > count ? n : count * 2;
  }
  a.groups = {a.gid};
  return a;
}

// Groups whose members hold root's powers in all but name: the container engines' sockets
// (docker, lxd, podman's), the block devices and kernel memory (disk, kmem), sudo's groups
// (sudo, wheel, admin), the password hashes (shadow) and every log (adm). `video`, `render` and
// the like are a Jetson user's ordinary groups (the GPU's device nodes) and stay allowed.
constexpr const char* k_root_equivalent_groups[] = {"sudo", "wheel", "admin", "adm", "disk", "kmem", "shadow",
                                                    "docker", "lxd", "lxc", "libvirt", "incus-admin", "podman"};

// The name of group `gid`; empty where it has none.
std::string group_name(gid_t gid) {
  std::vector<char> buf(16384);
  group gr{};
  group* found = nullptr;
  if (::getgrgid_r(gid, &gr, buf.data(), buf.size(), &found) != 0 || !found || !gr.gr_name) return {};
  return gr.gr_name;
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos && s.size() < 10;
}

}  // namespace

user_account lookup_unprivileged_account(const std::string& name) {
  if (name.empty()) throw platform_error("no account named: command_user is empty");
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* found = nullptr;
  int rc = all_digits(name) ? ::getpwuid_r(static_cast<uid_t>(std::stoul(name)), &pw, buf.data(), buf.size(), &found)
                            : ::getpwnam_r(name.c_str(), &pw, buf.data(), buf.size(), &found);
  if (rc != 0) throw platform_error("cannot look up account '" + name + "': " + std::strerror(rc));
  if (!found) throw platform_error("no account '" + name + "' on this machine");
  auto account = of_passwd(*found);
  require_unprivileged(account);
  return account;
}

void require_unprivileged(const user_account& a) {
  if (a.uid == 0) throw platform_error("account '" + a.name + "' is root: a command job never runs with root's privileges");
  // Group root opens what is group-writable by root (much of /etc, /var, a board's sysfs nodes).
  if (a.gid == 0)
    throw platform_error("account '" + a.name + "' has root's group (gid 0) as its primary group: a command job never "
                         "runs with group root");
  for (const auto g : a.groups)
    if (g == 0)
      throw platform_error("account '" + a.name + "' is a member of root's group (gid 0): a command job never runs "
                           "with group root");
  std::vector<gid_t> all = a.groups;
  all.push_back(a.gid);
  for (const auto g : all) {
    const std::string name = group_name(g);
    for (const char* privileged : k_root_equivalent_groups)
      if (name == privileged)
        throw platform_error("account '" + a.name + "' is a member of group '" + name + "' (gid " + std::to_string(g) +
                             "), which grants root's powers: a command job never runs with them (name an account "
                             "outside sudo, wheel, admin, adm, disk, kmem, shadow, docker, lxd, lxc, libvirt, "
                             "incus-admin and podman)");
  }
}

user_account current_account() {
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* found = nullptr;
  const uid_t uid = ::geteuid();
  if (::getpwuid_r(uid, &pw, buf.data(), buf.size(), &found) != 0 || !found) {
    user_account a;
    a.name = std::to_string(uid);
    a.uid = uid;
    a.gid = ::getegid();
    a.groups = {a.gid};
    return a;
  }
  return of_passwd(*found);
}

}  // namespace jetperf::platform
