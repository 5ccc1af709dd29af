#include <jetperf/sim/mode_cap_hold.hpp>

#include <cstdio>

#include <jetperf/sim/board_layout.hpp>
#include <jetperf/sim/kernel_write.hpp>

#include "file_io.hpp"

namespace jetperf::sim {

namespace {

// A (min, max) limit pair under `cap` on `table`: each above the highest step under the cap
// becomes that step. Returns how many files were rewritten.
int hold(const std::string& min_path, const std::string& max_path, const std::vector<long long>& table, long long cap) {
  if (cap <= 0 || table.empty()) return 0;
  const long long top = table_floor(table, cap);
  int rewritten = 0;
  for (const auto& path : {max_path, min_path}) {
    const auto v = detail::read_ll(path);
    if (!v || *v <= top) continue;
    detail::write_in_place(path, std::to_string(top) + "\n");
    ++rewritten;
  }
  return rewritten;
}

int mode_in_effect(const std::string& root) {
  const auto text = detail::read_text(root + board_layout::status_board_path);
  int mode = -1;
  if (!text || std::sscanf(text->c_str(), "pmode:%d", &mode) != 1) return -1;
  return mode;
}

}  // namespace

bool holds_mode_caps(const board_profile& profile) { return profile.l4t_major >= 35; }

int hold_mode_caps(const board_profile& p, const std::string& root) {
  if (!holds_mode_caps(p)) return 0;
  const mode_spec* m = p.find_mode(mode_in_effect(root));
  if (!m) return 0;
  int rewritten = 0;
  for (const auto& c : p.clusters) {
    const std::string policy = root + "/sys/devices/system/cpu/cpufreq/policy" + std::to_string(c.cores.front());
    rewritten += hold(policy + "/scaling_min_freq", policy + "/scaling_max_freq", c.freqs_khz, m->cpu_max_khz);
  }
  const std::string df = root + p.gpu_devfreq_dir;
  rewritten += hold(df + "/min_freq", df + "/max_freq", p.gpu_freqs_hz, m->gpu_max_hz);
  return rewritten;
}

}  // namespace jetperf::sim
