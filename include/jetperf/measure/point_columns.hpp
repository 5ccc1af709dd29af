#pragma once
// The columns the measurement protocol writes into every measured point, whatever the kind:
// board settings, the power window and the window's verdict. A kind's column table includes
// these groups where its points carry them, so each is declared once, next to what writes it.
#include <vector>

#include <jetperf/common/columns.hpp>
#include <jetperf/common/row.hpp>

namespace jetperf::measure {

/// The columns the protocol writes (row.set(cols::power_w, ...)); the board-setting columns are
/// platform::setting_fields()' keys.
namespace cols {
inline constexpr column_key<record> requested{"requested"};
inline constexpr column_key<record> read_back{"read_back"};
inline constexpr column_key<double> power_w{"power_w"};
inline constexpr column_key<double> power_rse{"power_rse"};
inline constexpr column_key<std::int64_t> power_samples{"power_samples"};
inline constexpr column_key<double> window_energy_j{"window_energy_j"};
inline constexpr column_key<double> temp_max_c{"temp_max_c"};
inline constexpr column_key<double> idle_power_w{"idle_power_w"};
inline constexpr column_key<double> energy_j{"energy_j"};
inline constexpr column_key<double> dynamic_power_w{"dynamic_power_w"};
inline constexpr column_key<double> dynamic_energy_j{"dynamic_energy_j"};
inline constexpr column_key<double> sim_power_w{"sim_power_w"};
inline constexpr column_key<double> sim_dynamic_w{"sim_dynamic_w"};
inline constexpr column_key<record> throttle{"throttle"};
inline constexpr column_key<std::vector<std::string>> flags{"flags"};
inline constexpr column_key<double> power_window_covered_s{"power_window_covered_s"};
inline constexpr column_key<std::string> stop_reason{"stop_reason"};
inline constexpr column_key<double> projected_rse{"projected_rse"};
inline constexpr column_key<double> others_cpu_share{"others_cpu_share"};
inline constexpr column_key<std::int64_t> retries{"retries"};
inline constexpr column_key<std::vector<std::string>> unmet{"unmet"};
/// Every row's: why a point was skipped, why it failed (trailing_columns()).
inline constexpr column_key<std::string> reason{"reason"};
inline constexpr column_key<std::string> error{"error"};
/// Every row's: the physical bounds its figures broke, {bound: what broke it} (row_bounds.hpp;
/// status implausible).
inline constexpr column_key<record> implausible{"implausible"};
}  // namespace cols

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
