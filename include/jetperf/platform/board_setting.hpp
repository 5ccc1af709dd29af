#pragma once
// What a job can set on the board and what the board offers, typed: the job path (specs, points,
// the measurement protocol) takes and returns these; api/ alone turns them into JSON.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/platform/mode_caps.hpp>

namespace jetperf::platform {

/// One setting of the board; an absent value leaves that control as it is.
struct board_setting {
  std::optional<std::int64_t> power_mode;
  std::optional<std::int64_t> emc_freq_hz;
  std::optional<std::int64_t> gpu_freq_hz;
  std::optional<std::int64_t> cpu_freq_khz;

  bool empty() const { return !power_mode && !emc_freq_hz && !gpu_freq_hz && !cpu_freq_khz; }
  /// "power_mode=0,gpu_freq_hz=1300500000" (set values only, sweep order); "as_is" when empty.
  std::string label() const;
};

/// One of the four settings: its one spelling (the key of points, result columns and the board
/// API), unit and meaning, and where it lives in a board_setting. Code that goes over the
/// settings goes over this table rather than naming them again.
struct setting_field {
  const char* key;
  const char* unit;
  const char* description;
  std::optional<std::int64_t> board_setting::*member;
  bool headline;  ///< shown in a results table by default
};

/// power_mode, emc_freq_hz, gpu_freq_hz, cpu_freq_khz: sweep order, outermost first.
const std::vector<setting_field>& setting_fields();

/// The one check of a clock value against the values the board offers (`offered`, any order),
/// wherever a value arrives: a job's spec axes at submission (field "spec.gpu_freqs"), PUT
/// /v1/clocks, and a point's setting when it is applied. Returns `value`; else throws
/// validation_error(field, "<setting> <value> is not offered by this board; valid: <list>",
/// "not_offered"), or "this board offers no <setting> control" when it offers none, so a value
/// is refused in the same words at submission and at apply.
std::int64_t check_offered_clock(std::int64_t value, std::vector<std::int64_t> offered, const std::string& field,
                                 const std::string& setting);

struct power_mode_offer {
  int id = 0;
  std::string name;
  /// The modes from which switching to this one changes GPU power gating, so that nvpmodel
  /// applies it only at the next boot.
  std::vector<std::int64_t> reboot_from;
};

/// What can be set, for spec validation.
struct board_offer {
  std::vector<power_mode_offer> power_modes;
  std::optional<std::int64_t> power_mode;  ///< the mode in effect, when the board says
  /// The clock caps each power mode sets, by mode id (mode_caps.hpp); a mode without an entry
  /// sets none.
  std::map<std::int64_t, mode_caps> caps;

  std::vector<std::int64_t> gpu_freqs_hz;  ///< ascending
  std::vector<std::int64_t> cpu_freqs_khz;
  std::vector<std::int64_t> emc_freqs_hz;
  /// The power sensors' averaging counts (INA3221 `samples`); empty when none can be set.
  std::vector<std::int64_t> sensor_samples;
  /// nullopt without a board: whoever asks decides (the build's CUDA runtime).
  std::optional<bool> has_cuda_device;
  std::int64_t memory_bytes = 0;      ///< 0 = unknown
  std::int64_t gpu_memory_bytes = 0;  ///< 0 = unknown (Jetson: the shared memory)

  /// The caps of power mode `mode` (the mode in effect when nullopt); none when unknown.
  mode_caps caps_in(std::optional<std::int64_t> mode = std::nullopt) const;
  /// "2 (MODE_30W)", or the id alone when the board does not offer it.
  std::string mode_label(std::int64_t mode) const;
  /// The offered values of a clock setting (emc_freq_hz, gpu_freq_hz, cpu_freq_khz), all modes'.
  const std::vector<std::int64_t>& clock_values(const std::string& setting) const;
};

}  // namespace jetperf::platform
