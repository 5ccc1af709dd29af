#include <jetperf/platform/cgroup_paths.hpp>

#include <algorithm>
#include <cctype>
#include <sstream>

namespace jetperf::platform {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 3), nullptr, 8));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

bool has_list_item(const std::string& list, const std::string& item) {
  const auto items = split(list, ',');
  return std::find(items.begin(), items.end(), item) != items.end();
}

std::vector<cgroup_mount> parse_cgroup_mounts(const std::string& mountinfo) {
  std::vector<cgroup_mount> out;
  for (const auto& line : split(mountinfo, '\n')) {
    // "ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS"
    std::istringstream in(line);
    std::vector<std::string> f;
    for (std::string w; in >> w;) f.push_back(w);
    const auto dash = std::find(f.begin(), f.end(), "-");
    if (f.size() < 5 || dash == f.end() || f.end() - dash < 4) continue;
    const std::string fstype = *(dash + 1);
    if (fstype != "cgroup" && fstype != "cgroup2") continue;
    out.push_back({fstype == "cgroup2" ? 2 : 1, *(dash + 3), unescape(f[3]), unescape(f[4])});
  }
  return out;
}

std::vector<cgroup_membership> parse_cgroup_memberships(const std::string& proc_cgroup) {
  std::vector<cgroup_membership> out;
  for (const auto& line : split(proc_cgroup, '\n')) {
    const auto a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    out.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
  }
  return out;
}

std::string cgroup_dir(const cgroup_mount& mount, const std::string& path) {
  std::string rel = path;
  if (mount.root != "/" && rel.rfind(mount.root, 0) == 0) rel = rel.substr(mount.root.size());
  return mount.mount_point + (rel == "/" ? "" : rel);
}

std::optional<std::string> cgroup2_mount_point(const std::string& mountinfo) {
  for (const auto& m : parse_cgroup_mounts(mountinfo))
    if (m.version == 2) return m.mount_point;
  return std::nullopt;
}

std::optional<std::string> cgroup2_dir(const std::string& mountinfo, const std::string& proc_cgroup) {
  for (const auto& c : parse_cgroup_memberships(proc_cgroup)) {
    if (c.id != "0" || !c.controllers.empty()) continue;
    for (const auto& m : parse_cgroup_mounts(mountinfo))
      if (m.version == 2) return cgroup_dir(m, c.path);
  }
  return std::nullopt;
}

}  // namespace jetperf::platform
