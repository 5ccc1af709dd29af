#include <jetperf/kinds/common/idle_baseline.hpp>

namespace jetperf::kinds::common {

dynamic_figures subtract_idle(std::optional<double> power_w, std::optional<double> idle_power_w, double time_s) {
  dynamic_figures f;
  if (!power_w || !idle_power_w) return f;
  f.dynamic_power_w = *power_w - *idle_power_w;
  f.dynamic_energy_j = *f.dynamic_power_w * time_s;
  return f;
}

}  // namespace jetperf::kinds::common
