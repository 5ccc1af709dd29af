#include <jetperf/platform/meminfo.hpp>

#include <sstream>

#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::platform {

std::optional<std::int64_t> meminfo_bytes(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  const std::string wanted = key + ":";
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    long long kb = 0;
    if (fields >> name >> kb && name == wanted) return static_cast<std::int64_t>(kb) * 1024;
  }
  return std::nullopt;
}

memory_info read_memory_info(const sysfs_root& root) {
  memory_info out;
  const auto text = root.try_read(paths::meminfo);
  if (!text) return out;
  out.total_bytes = meminfo_bytes(*text, "MemTotal");
  out.available_bytes = meminfo_bytes(*text, "MemAvailable");
  out.swap_total_bytes = meminfo_bytes(*text, "SwapTotal");
  out.swap_free_bytes = meminfo_bytes(*text, "SwapFree");
  return out;
}

memory_info host_memory_info() { return read_memory_info(sysfs_root("/")); }

}  // namespace jetperf::platform
