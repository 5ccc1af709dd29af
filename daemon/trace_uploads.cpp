#include "trace_uploads.hpp"

#include <dirent.h>

#include <cstdio>

#include <spdlog/spdlog.h>

#include "atomic_file.hpp"

namespace jetperf::daemon {

std::string prepare_trace_dir(const daemon_config& config) {
  const auto base = config.db_path == ":memory:" ? config.runtime_dir : parent_directory(config.db_path);
  const auto dir = base + "/traces";
  ensure_directory(dir, 0700);
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name.rfind("upload-", 0) == 0 && name.size() > 5 && name.compare(name.size() - 5, 5, ".part") == 0) {
        std::remove((dir + "/" + name).c_str());
        spdlog::info("traces: removed the partial upload {} a previous run left", name);
      }
    }
    ::closedir(d);
  }
  return dir;
}

}  // namespace jetperf::daemon
