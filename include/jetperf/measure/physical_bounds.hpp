#pragma once
// What is physically possible for the figures jetperf reports, in one place. A figure past one of
// these bounds is a measurement gone wrong (a misplaced reading, a misfitted ramp, a board that
// contradicts itself), never a result: the row that holds it gets the status `implausible`, its
// `implausible` column names the bounds it broke (row_bounds.hpp writes it, the job runner for
// every kind's rows, the sensor kind for each channel of its card), the job's caveats count it and
// the verdicts leave it out (verdict_exclusion.hpp). Pure functions: the callers pass what the
// board offers and the figures.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/platform/board_setting.hpp>

namespace jetperf::measure {

enum class physical_bound {
  clock_above_cap,          ///< a clock the row ran at above the power mode's cap
  clock_outside_offered,    ///< a clock outside the lowest..highest step the board offers
  power_negative,           ///< a power (W column or rail) below zero
  energy_negative,          ///< an energy (J column) below zero
  rail_above_total,         ///< one rail above the board's total (its input rail, or the rails' sum)
  rails_above_input,        ///< the sub-rails together above the input rail that feeds them
  sensor_delay_negative,    ///< a reading seen before the window it averages ended
  sensor_window_too_long,   ///< a reading averaging more than two update periods
  sensor_period_off_chip,   ///< a rail's update period not its chip's (one INA3221 converts its channels in turn)
  layer_energy_sum_off_run, ///< the layers' energies adding up to outside 0.8-1.25x of the run they split
};

/// The bound's name: the key of the `implausible` column, and what caveats count.
const char* to_string(physical_bound b);

/// One bound a figure broke: which, the figure (a column, or a card's figure), what it read and
/// the limit it passed, in the figure's unit.
struct bound_violation {
  physical_bound bound = physical_bound::power_negative;
  std::string figure;
  double value = 0;
  double limit = 0;
  std::string unit;
  /// What the limit is, where it is another figure ("rail_VDD_IN_w", "the chip's 19.58 ms").
  std::string against;
  /// "rail_VDD_GPU_w 12.3 W > 10.1 W (rail_VDD_IN_w)".
  std::string text() const;
};

/// Relative tolerance of a clock against a step or cap (the read-back's rounding to kHz or MHz).
inline constexpr double k_clock_bound_tolerance = 0.005;
/// A rail may read this far below zero: an INA3221 channel's offset at zero current (a
/// power-gated rail), not a figure gone wrong.
inline constexpr double k_rail_offset_w = 0.1;
/// A rail, or the sub-rails together, may read this far above the total (relative, and absolute)
/// before it is impossible: each channel's reading averages its own stretch of the window, and
/// the telemetry's reading check allows the same (telemetry/power_rails.hpp).
inline constexpr double k_rail_excess_rel = 0.10;
inline constexpr double k_rail_excess_w = 0.5;
/// The layers' energies against the run they split: their sum within this factor either way.
inline constexpr double k_layer_sum_low = 0.8;
inline constexpr double k_layer_sum_high = 1.25;

/// What a row's clocks are checked against: the board's offered steps (empty: that clock is not
/// checked) and the current power mode's caps (nullopt: no cap known, or none).
struct clock_limits {
  std::vector<std::int64_t> gpu_freqs_hz;
  std::vector<std::int64_t> cpu_freqs_khz;
  std::vector<std::int64_t> emc_freqs_hz;
  std::optional<std::int64_t> gpu_cap_hz;
  std::optional<std::int64_t> cpu_cap_khz;
  std::optional<std::int64_t> emc_cap_hz;
};

/// The offered steps of `offer`; no caps (the caller adds the mode's where it knows them).
clock_limits clock_limits_of(const platform::board_offer& offer);

/// The clocks of `ran_at` (the row's setting columns) above their cap or outside the range of the
/// offered steps, each within k_clock_bound_tolerance.
std::vector<bound_violation> check_clocks(const platform::board_setting& ran_at, const clock_limits& limits);

/// A power figure (W) below zero; `rail` allows a channel's offset at zero current.
std::optional<bound_violation> check_power(const std::string& figure, double watts, bool rail);
/// An energy figure (J) below zero.
std::optional<bound_violation> check_energy(const std::string& figure, double joules);

/// Rails against the board's total, over one window: each rail (name, W) no more than the total
/// (`total_figure` names it), and, where the total is an input rail (`input_rail`, one of
/// `rails`), the others together no more than it, each within k_rail_excess_*.
std::vector<bound_violation> check_rails(const std::vector<std::pair<std::string, double>>& rails, double total_w,
                                         const std::string& total_figure,
                                         const std::optional<std::string>& input_rail);

/// The layers' energies (their sum) against the run they split (`run_j`): outside
/// k_layer_sum_low..k_layer_sum_high of it is impossible.
std::optional<bound_violation> check_layer_energy_sum(double layers_sum_j, double run_j);

/// One power channel's timing as the sensor card measured it (seconds).
struct channel_timing {
  /// The sensor chip it belongs to (rails of one INA3221 share its conversion cycle); "" when
  /// none is known (a computed sum, a tegrastats field).
  std::string chip;
  double period_s = 0;  ///< fitted update period; 0: none was fitted
  std::optional<double> window_s;  ///< the averaging window fitted from the load's steps
  std::optional<double> delay_s;   ///< from a window's end to its reading being seen
};

/// Relative tolerance of a channel's period against its chip's (the fit finds a period within a
/// fraction of a percent; a period half or twice the chip's is what this catches).
inline constexpr double k_chip_period_tolerance = 0.10;
/// A delay may come out this far below zero, as a fraction of the channel's update period: each
/// reading is placed between the two polls that saw it change.
inline constexpr double k_delay_slack_periods = 0.1;
/// A window may come out this far past two update periods, relative (the ramp's fit grid).
inline constexpr double k_window_slack = 0.05;

/// Per channel (in the order given), the bounds its figures break: a delay below zero, a window
/// longer than two update periods, a period off its chip's (the median of the chip's channels'
/// fitted periods: a chip converts its channels in turn, one period for all).
std::vector<std::vector<bound_violation>> check_sensor_channels(const std::vector<channel_timing>& channels);

/// The sensor chip of a channel from its source (telemetry::channel_info::source, a board path or
/// two joined by " x "): the folder of its first file; "" when the source is not a file.
std::string sensor_chip_of(const std::string& source);

}  // namespace jetperf::measure
