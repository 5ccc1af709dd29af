#include <jetperf/platform/meminfo.hpp>

#include <sstream>

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

}  // namespace jetperf::platform
