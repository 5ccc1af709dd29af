#pragma once
// Dynamic power and energy: what a workload adds on top of the board at rest.
#include <optional>

namespace jetperf::kinds::common {

struct dynamic_figures {
  std::optional<double> dynamic_power_w;   ///< power - idle
  std::optional<double> dynamic_energy_j;  ///< (power - idle) * time
};

/// Subtracts the idle baseline; both figures are nullopt when either power is unknown.
dynamic_figures subtract_idle(std::optional<double> power_w, std::optional<double> idle_power_w, double time_s);

}  // namespace jetperf::kinds::common
