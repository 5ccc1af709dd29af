#include <jetperf/sim/board_layout.hpp>

#include <cstdio>

#include <map>
#include <memory>
#include <mutex>

#include <jetperf/common/errors.hpp>
#include <jetperf/sim/profile_file.hpp>

#include "file_io.hpp"

namespace jetperf::sim {

board_layout::board_layout(std::string dir) : dir_(std::move(dir)) {
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
}

const board_profile& board_layout::profile() const {
  if (const auto text = detail::read_text(profile_json_file())) {
    // The simulator's programs ask once per run; a daemon keeps its own copy (sim_board).
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<board_profile>> read;
    std::lock_guard<std::mutex> lock(mutex);
    auto& p = read[dir_];
    if (!p) p = std::make_unique<board_profile>(profile_from_json_text(*text));
    return *p;
  }
  auto name = detail::read_text(profile_file());
  if (!name) throw not_found("no simulated board in " + dir_ + " (missing " + profile_file() + ")");
  while (!name->empty() && (name->back() == '\n' || name->back() == ' ')) name->pop_back();
  return find_profile(*name);
}

nvpmodel_status read_nvpmodel_status(const board_layout& layout) {
  nvpmodel_status s;
  auto text = detail::read_text(layout.status_file());
  if (!text) return s;
  int mode = -1, pending = -1;
  char fan[64] = {0};
  int n = std::sscanf(text->c_str(), "pmode:%d fmode:%63s pending:%d", &mode, fan, &pending);
  if (n >= 1) s.mode = mode;
  if (n >= 2 && std::string(fan) != "none") s.fan_mode = fan;
  if (n >= 3) s.pending = pending;
  return s;
}

void write_nvpmodel_status(const board_layout& layout, const nvpmodel_status& s) {
  char buf[128];
  if (s.pending >= 0)
    std::snprintf(buf, sizeof buf, "pmode:%04d fmode:%s pending:%04d\n", s.mode,
                  s.fan_mode.empty() ? "none" : s.fan_mode.c_str(), s.pending);
  else
    std::snprintf(buf, sizeof buf, "pmode:%04d fmode:%s\n", s.mode, s.fan_mode.empty() ? "none" : s.fan_mode.c_str());
  detail::write_atomic(layout.status_file(), buf);
}

}  // namespace jetperf::sim
