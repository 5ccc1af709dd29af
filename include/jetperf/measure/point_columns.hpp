#pragma once
// The columns the measurement protocol writes into every measured point, whatever the kind:
// board settings, the power window and the window's verdict. A kind's column table includes
// these groups where its points carry them, so each is declared once, next to what writes it.
#include <vector>

#include <jetperf/common/columns.hpp>

namespace jetperf::measure {

/// power_mode, emc_freq_hz, gpu_freq_hz, cpu_freq_khz (put_settings), `shown` as given.
std::vector<column> setting_columns(bool shown);
/// requested, read_back (put_settings).
std::vector<column> setting_detail_columns();
/// power_w, power_rse, power_samples, window_energy_j, temp_max_c, idle_power_w, energy_j,
/// dynamic_power_w, dynamic_energy_j (put_power_metrics); the rails follow the kind's table.
std::vector<column> power_columns();
/// throttle, flags, stop_reason, unmet (put_window_flags).
std::vector<column> window_columns();

/// Concatenates column groups into one table.
std::vector<column> join_columns(std::initializer_list<std::vector<column>> groups);

}  // namespace jetperf::measure
