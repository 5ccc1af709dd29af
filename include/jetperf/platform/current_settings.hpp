#pragma once
// The board's settings as they are now: what a job point records and what GET /v1/clocks shows
// first (api/board_views.hpp makes its JSON).
#include <optional>
#include <string>

namespace jetperf::platform {

/// A *_freq value is the locked frequency when min == max, else the current one; an absent value
/// is a control this board does not have (or could not read).
struct current_settings {
  std::optional<int> power_mode;
  std::optional<std::string> power_mode_name;
  std::optional<long long> gpu_freq_hz;
  std::optional<long long> gpu_min_hz;
  std::optional<long long> gpu_max_hz;
  std::optional<long long> gpu_cur_hz;
  std::optional<long long> cpu_freq_khz;  ///< of the first cluster with an online core
  std::optional<long long> cpu_cur_khz;
  std::optional<long long> emc_freq_hz;
  std::optional<bool> emc_locked;
};

}  // namespace jetperf::platform
