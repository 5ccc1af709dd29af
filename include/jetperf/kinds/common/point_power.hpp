#pragma once
// The power columns every measured point reports, from one measurement window.
#include <optional>

#include <jetperf/common/row.hpp>
#include <jetperf/measure/measurement_loop.hpp>
#include <jetperf/measure/power_window.hpp>

namespace jetperf::kinds::common {

/// Adds power_w, power_rse, power_samples, window_energy_j, rail_<name>_w per rail, temp_max_c,
/// idle_power_w, energy_j (power x one invocation), dynamic_power_w and dynamic_energy_j to `metrics`
/// (null where unknown). Returns the mean total power, nullopt without a power reading.
/// Adds rail_<NAME>_w (the one rail naming of every kind, rail_column_name) for each
/// "rail.<NAME>" channel of `summary`.
void put_rail_metrics(row& metrics, const measure::power_summary& summary);

std::optional<double> put_power_metrics(row& metrics, const measure::loop_result& res,
                                        std::optional<double> idle_power_w, double invocation_s);

}  // namespace jetperf::kinds::common
