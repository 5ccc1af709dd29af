#pragma once
// Where a process's control groups are: /proc/self/mountinfo's cgroup mounts and /proc/self/cgroup's
// lines, parsed in one place (the simulator's CPU share and the runs' containment read them).
#include <optional>
#include <string>
#include <vector>

namespace jetperf::platform {

/// A mounted cgroup hierarchy (a mountinfo line of type cgroup or cgroup2).
struct cgroup_mount {
  int version = 1;               ///< 1: "cgroup", 2: "cgroup2"
  std::string super_options;     ///< v1: its controllers among them ("rw,cpu,cpuacct")
  std::string root;              ///< the hierarchy's path the mount shows
  std::string mount_point;
};

/// One line of /proc/PID/cgroup: "ID:CONTROLLERS:PATH" (v2: "0::PATH").
struct cgroup_membership {
  std::string id;
  std::string controllers;  ///< comma-separated; empty for v2 (and named v1 hierarchies' "name=...")
  std::string path;
};

std::vector<cgroup_mount> parse_cgroup_mounts(const std::string& mountinfo);
std::vector<cgroup_membership> parse_cgroup_memberships(const std::string& proc_cgroup);
/// The directory of `path` (a membership's) under `mount`: the path is relative to the
/// hierarchy's root, of which the mount shows `root`.
std::string cgroup_dir(const cgroup_mount& mount, const std::string& path);
/// Whether `list` ("a,b,c") holds `item`.
bool has_list_item(const std::string& list, const std::string& item);

/// The process's cgroup v2 directory (mountinfo and /proc/self/cgroup texts); nullopt without
/// a mounted cgroup2 hierarchy or a "0::" line.
std::optional<std::string> cgroup2_dir(const std::string& mountinfo, const std::string& proc_cgroup);
/// The cgroup2 hierarchy's mount point; nullopt without one.
std::optional<std::string> cgroup2_mount_point(const std::string& mountinfo);

}  // namespace jetperf::platform
