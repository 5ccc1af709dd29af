#include <jetperf/platform/gpu_node.hpp>

#include <algorithm>
#include <cctype>

#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::platform {

namespace {

// of_node names end in a NUL (device-tree strings); fixture trees end them in a newline.
std::string strip_nul(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '\0'), s.end());
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

bool is_gpu_name(const std::string& name) {
  static const char* known[] = {"gv11b", "gp10b", "ga10b", "gb10b", "gpu"};
  for (const char* k : known)
    if (name == k) return true;
  return name.find("gpu") != std::string::npos;
}

// AGX Thor (OpenRM driver): the GPU's graphics clock domain is the devfreq entry gpu-gpc-N, with
// no device/of_node/name and no `load` file (gh rbonghi/jetson_stats#885, PR #738); gpu-nvd-N is
// its multimedia domain, not the GPU's clock.
std::optional<gpu_node> find_gpc_domain(const sysfs_root& root, const std::string& cls) {
  auto entries = root.list(cls);
  std::sort(entries.begin(), entries.end());
  for (const auto& entry : entries) {
    if (entry.rfind("gpu-gpc-", 0) != 0) continue;
    auto freq = root.resolve(cls + "/" + entry);
    if (!freq || !root.exists(*freq + "/cur_freq")) continue;
    auto dev = root.resolve(*freq + "/device");
    return gpu_node{entry, *freq, dev.value_or(*freq)};
  }
  return std::nullopt;
}

}  // namespace

std::optional<gpu_node> find_gpu_node(const sysfs_root& root) {
  const std::string cls = paths::devfreq_class;
  if (auto gpc = find_gpc_domain(root, cls)) return gpc;
  for (const auto& entry : root.list(cls)) {
    // Resolve inside the root first: the class entries are links (absolute on some kernels).
    auto freq = root.resolve(cls + "/" + entry);
    if (!freq) continue;
    auto dev = root.resolve(*freq + "/device");
    if (!dev) continue;
    auto name_path = root.resolve(*dev + "/of_node/name");
    auto name = name_path ? root.try_read(*name_path) : std::nullopt;
    if (!name) continue;
    const std::string of_name = strip_nul(*name);
    if (!is_gpu_name(of_name)) continue;
    return gpu_node{of_name, *freq, *dev};
  }
  return std::nullopt;
}

}  // namespace jetperf::platform
