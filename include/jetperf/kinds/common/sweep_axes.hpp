#pragma once
// The board-setting axes every sweeping job kind shares (power modes, EMC, GPU and CPU clocks):
// parsed from a spec against what the board offers, and expanded outermost so that a sweep
// changes the power mode and the clocks as rarely as possible.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/platform/board_setting.hpp>

namespace jetperf::kinds::common {

/// A non-negative decimal integer of at most 18 digits ("0042" -> 42); nullopt otherwise.
std::optional<std::int64_t> parse_count(const std::string& text);

/// A list item as an integer: an integer, an integral float or a decimal string; throws
/// validation_error("spec.<name>") otherwise.
std::int64_t spec_integer(const cell& v, const std::string& name);

/// `text` cut at `sep`, each piece trimmed of blanks, empty pieces dropped ("a, b,," -> a, b).
std::vector<std::string> split_trimmed(const std::string& text, char sep);

/// A list from a list or a comma-separated string ("a, b" -> ["a", "b"]); a scalar -> [it].
cell_list spec_list(const cell& v);

/// The spec fields every kind that sweeps board settings declares, declared once here:
/// power_modes, emc_freqs, gpu_freqs, cpu_freqs and allow_reboot (allow_reboot_field).
const std::vector<spec_field>& board_axis_fields();
/// A kind's declared fields: its own `before`, board_axis_fields(), then its own `after`.
std::vector<spec_field> with_board_axes(std::vector<spec_field> before, const std::vector<spec_field>& after);

/// Reads power_modes, emc_freqs, gpu_freqs and cpu_freqs ("all" | "min" | "max" | values, each
/// checked against `offered`) into `out` as lists of ints, or null where the spec leaves the
/// setting as it is, and allow_reboot as a boolean. Throws validation_error("spec.<axis>") naming
/// the valid values, and validation_error("spec.allow_reboot") naming the switches when a power
/// mode of the sweep (or the way back to the current one) needs a reboot and allow_reboot is false.
void normalize_board_axes(const record& spec, const platform::board_offer& offered, record& out);

/// The board_axis_fields() of a stored (normalized) spec, for a kind's stored() to keep.
record stored_board_axes(const record& normalized);

/// The keys of a point that are board settings, in sweep order (outermost first).
const std::vector<std::string>& board_setting_keys();

/// The distinct board settings of a normalized spec, power mode outermost, then emc, gpu, cpu:
/// each {power_mode, emc_freq_hz, gpu_freq_hz, cpu_freq_khz} (null = leave as is).
std::vector<record> board_setting_points(const record& spec);

/// How many distinct board settings a normalized spec sweeps (at least 1).
std::size_t board_setting_count(const record& spec);

/// The four axis names, in sweep order, with their sizes (for "too many points" messages).
std::vector<std::pair<std::string, std::size_t>> board_axis_sizes(const record& spec);

}  // namespace jetperf::kinds::common
