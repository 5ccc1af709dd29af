#include <jetperf/platform/own_executable.hpp>

#include <filesystem>

#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::platform {

std::optional<std::string> own_executable() {
  std::error_code ec;
  // The host's own /proc, not a board root: this is the process, not the board it serves.
  auto exe = std::filesystem::read_symlink(paths::self_exe, ec);
  if (ec) return std::nullopt;
  return exe.string();
}

}  // namespace jetperf::platform
