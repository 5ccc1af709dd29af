#include <jetperf/kinds/common/point_power.hpp>

#include <cmath>

#include <jetperf/common/columns.hpp>
#include <jetperf/kinds/common/idle_baseline.hpp>
#include <jetperf/measure/point_columns.hpp>

namespace jetperf::kinds::common {

void put_rail_metrics(row& mt, const measure::power_summary& summary) {
  for (const auto& entry : summary.channels) {
    const auto& c = entry.second;
    if (c.name.rfind("rail.", 0) == 0) mt.put(rail_column_name(c.name.substr(5)), c.mean);
  }
}

std::optional<double> put_power_metrics(row& mt, const measure::loop_result& res, std::optional<double> idle_w,
                                        double invocation_s) {
  std::optional<double> power_w;
  mt.set(measure::cols::power_rse, nullptr);
  mt.set(measure::cols::power_samples, 0);
  mt.set(measure::cols::temp_max_c, nullptr);
  if (res.power) {
    power_w = res.power->total_power_w;
    if (power_w) {
      mt.set(measure::cols::power_rse, std::isfinite(res.power->total_rse) ? std::optional<double>(res.power->total_rse)
                                                                 : std::nullopt);
      mt.set(measure::cols::power_samples, res.power->total_samples);
      mt.set(measure::cols::window_energy_j, res.power->total_energy_j);
    }
    put_rail_metrics(mt, *res.power);
    mt.set(measure::cols::temp_max_c, res.power->temp_max_c);
  }
  mt.set(measure::cols::power_w, power_w);
  mt.set(measure::cols::idle_power_w, idle_w);
  mt.set(measure::cols::energy_j, power_w ? std::optional<double>(*power_w * invocation_s) : std::nullopt);
  const auto dyn = subtract_idle(power_w, idle_w, invocation_s);
  mt.set(measure::cols::dynamic_power_w, dyn.dynamic_power_w);
  mt.set(measure::cols::dynamic_energy_j, dyn.dynamic_energy_j);
  return power_w;
}

}  // namespace jetperf::kinds::common
