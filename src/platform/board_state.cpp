#include <jetperf/platform/board_state.hpp>

#include <algorithm>

#include <spdlog/spdlog.h>

#include <jetperf/common/errors.hpp>

namespace jetperf::platform {

board_state capture_board_state(const clock_control& clocks, std::optional<int> power_mode) {
  board_state s;
  s.power_mode = power_mode;
  if (clocks.has_gpu()) s.gpu = clocks.gpu_range();
  const auto& clusters = clocks.discovery().clusters;
  for (size_t i = 0; i < clusters.size(); ++i) {
    // An offline policy may have no readable files; it is restored by bringing its cores back.
    try {
      s.cpu.push_back({clusters[i].cores, clocks.cpu_range(i)});
    } catch (const platform_error& e) {
      spdlog::debug("snapshot: skipping CPU policy {}: {}", clusters[i].cpufreq_dir, e.what());
    }
  }
  if (!clocks.discovery().cores.empty()) s.online_cores = clocks.online_cores();
  if (clocks.has_emc()) {
    try {
      s.emc = clocks.emc();
    } catch (const platform_error& e) {
      spdlog::debug("snapshot: EMC not readable: {}", e.what());
    }
  }
  s.fan_pwm = clocks.fan_pwm();
  return s;
}

void restore_sensor_averaging(const sysfs_root& root, const std::vector<sensor_chip_averaging>& chips) {
  std::vector<std::string> failures;
  for (const auto& c : chips) {
    try {
      if (root.try_read_int(c.dir + "/samples") != c.samples) root.write(c.dir + "/samples", std::to_string(c.samples));
    } catch (const std::exception& e) {
      failures.push_back(c.dir + ": " + e.what());
    }
  }
  if (!failures.empty()) {
    std::string msg = "restoring the power sensors' averaging failed: ";
    for (size_t i = 0; i < failures.size(); ++i) msg += (i ? "; " : "") + failures[i];
    throw platform_error(msg);
  }
}

void restore_board_clocks(clock_control& clocks, const board_state& state) {
  std::vector<std::string> failures;
  auto attempt = [&](const char* what, const auto& fn) {
    try {
      fn();
    } catch (const std::exception& e) {
      failures.push_back(std::string(what) + ": " + e.what());
    }
  };
  const auto& disc = clocks.discovery();
  std::vector<int> want_online = state.online_cores.value_or(std::vector<int>{});
  auto should_be_online = [&](int c) { return std::binary_search(want_online.begin(), want_online.end(), c); };
  std::sort(want_online.begin(), want_online.end());
  // Cores first, so that their policies can be written; cores going offline last.
  if (state.online_cores) {
    auto now = clocks.online_cores();
    for (int c : disc.cores)
      if (should_be_online(c) && !std::binary_search(now.begin(), now.end(), c))
        attempt("core online", [&] { clocks.set_core_online(c, true); });
  }
  for (const auto& cs : state.cpu) {
    for (size_t i = 0; i < disc.clusters.size(); ++i) {
      if (disc.clusters[i].cores != cs.cores || !clocks.cluster_online(i)) continue;
      attempt("cpu policy", [&] { clocks.set_cpu_range(i, cs.range); });
    }
  }
  if (state.online_cores) {
    auto now = clocks.online_cores();
    for (int c : disc.cores)
      if (!should_be_online(c) && std::binary_search(now.begin(), now.end(), c))
        attempt("core offline", [&] { clocks.set_core_online(c, false); });
  }
  if (state.gpu && clocks.has_gpu()) attempt("gpu", [&] { clocks.set_gpu_range(*state.gpu); });
  // EMC and fan are written only when they differ: their files are the most likely to be absent
  // or owned by someone else (debugfs, nvfancontrol).
  if (state.emc && clocks.has_emc()) {
    attempt("emc", [&] {
      std::optional<emc_setting> now;
      try {
        now = clocks.emc();
      } catch (const platform_error&) {
      }
      if (!now || now->locked != state.emc->locked || now->request != state.emc->request) clocks.restore_emc(*state.emc);
    });
  }
  if (state.fan_pwm && clocks.has_fan() && clocks.fan_pwm() != state.fan_pwm)
    attempt("fan", [&] { clocks.set_fan_pwm(*state.fan_pwm); });
  if (!failures.empty()) {
    std::string msg = "restoring board settings failed: ";
    for (size_t i = 0; i < failures.size(); ++i) msg += (i ? "; " : "") + failures[i];
    throw platform_error(msg);
  }
}

}  // namespace jetperf::platform
