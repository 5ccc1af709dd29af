#include "locate_board.hpp"

#include <cstdlib>
#include <filesystem>

#include <jetperf/common/errors.hpp>

namespace fs = std::filesystem;

namespace jetperf::sim {

std::string locate_board_dir() {
  if (const char* env = std::getenv("JETPERF_SIM_DIR"); env && *env) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path dir = exe.parent_path().parent_path();
    if (fs::exists(dir / "profile")) return dir.string();
  }
  throw not_found("not inside a simulated board directory (no <dir>/profile above " + exe.string() +
                  "); set JETPERF_SIM_DIR");
}

}  // namespace jetperf::sim
