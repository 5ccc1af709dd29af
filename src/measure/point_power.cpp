#include <jetperf/measure/point_power.hpp>

#include <cmath>

#include <jetperf/common/columns.hpp>
#include <jetperf/measure/idle_baseline.hpp>

namespace jetperf::measure {

namespace {

nlohmann::json opt(std::optional<double> v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

}  // namespace

void put_rail_metrics(nlohmann::json& mt, const power_summary& summary) {
  for (const auto& entry : summary.channels) {
    const auto& c = entry.second;
    if (c.name.rfind("rail.", 0) == 0) mt[rail_column_name(c.name.substr(5))] = c.mean;
  }
}

std::optional<double> put_power_metrics(nlohmann::json& mt, const loop_result& res, std::optional<double> idle_w,
                                        double invocation_s) {
  std::optional<double> power_w;
  mt["power_rse"] = nullptr;
  mt["power_samples"] = 0;
  mt["temp_max_c"] = nullptr;
  if (res.power) {
    power_w = res.power->total_power_w;
    if (power_w) {
      mt["power_rse"] = std::isfinite(res.power->total_rse) ? nlohmann::json(res.power->total_rse) : nlohmann::json();
      mt["power_samples"] = res.power->total_samples;
      mt["window_energy_j"] = opt(res.power->total_energy_j);
    }
    put_rail_metrics(mt, *res.power);
    mt["temp_max_c"] = opt(res.power->temp_max_c);
  }
  mt["power_w"] = opt(power_w);
  mt["idle_power_w"] = opt(idle_w);
  mt["energy_j"] = power_w ? nlohmann::json(*power_w * invocation_s) : nlohmann::json();
  const auto dyn = subtract_idle(power_w, idle_w, invocation_s);
  mt["dynamic_power_w"] = opt(dyn.dynamic_power_w);
  mt["dynamic_energy_j"] = opt(dyn.dynamic_energy_j);
  return power_w;
}

}  // namespace jetperf::measure
