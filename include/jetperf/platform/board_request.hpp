#pragma once
// Requests to the board_controller, typed: what the job path and the API's clock and power-mode
// routes ask for once their input is read (api/board_views.hpp reads the API's JSON).
#include <optional>
#include <vector>

namespace jetperf::platform {

/// apply_request(): absent values leave a control as it is. Frequencies must be offered values.
struct board_request {
  std::optional<int> power_mode;
  std::optional<long long> gpu_freq_hz;
  std::optional<long long> cpu_freq_khz;
  std::optional<long long> emc_freq_hz;
  bool force = false;  ///< allows a power mode that takes effect only after a reboot
};

/// PUT /v1/clocks, with "min"/"max" already resolved against clock_offer; errors name gpu, cpu, emc.
struct clock_request {
  std::optional<long long> gpu_hz;
  std::optional<long long> cpu_khz;
  std::optional<long long> emc_hz;
};

/// The frequencies each control offers now (sorted ascending; empty: no such control).
struct clock_offer {
  std::vector<long long> gpu_hz;
  std::vector<long long> cpu_khz;
  std::vector<long long> emc_hz;
};

}  // namespace jetperf::platform
