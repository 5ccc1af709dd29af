#pragma once
// The clock caps of one nvpmodel power mode: the MAX_FREQ values its POWER_MODEL block writes
// (shared/jetson README 8.2, 8.3). A job or PUT /v1/clocks may not ask for a clock above the
// caps of the mode it runs in, "max" is the highest step under them, and a clock read back above
// them is flagged: a mode's name promises its caps.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/platform/nvpmodel_conf.hpp>

namespace jetperf::platform {

struct mode_caps {
  std::optional<std::int64_t> emc_freq_hz;   ///< nullopt: the mode sets no EMC cap
  std::optional<std::int64_t> gpu_freq_hz;   ///< nullopt: no GPU cap
  std::optional<std::int64_t> cpu_freq_khz;  ///< the lowest cap of the mode's online CPU clusters
  /// The cap of one setting by its key (emc_freq_hz, gpu_freq_hz, cpu_freq_khz); nullopt for none
  /// and for any other key.
  std::optional<std::int64_t> of(const std::string& setting) const;
};

/// A CLOCK MAX_FREQ value as a cap: nullopt for nvpmodel's "no limit" values, -1 (read as INT_MAX,
/// 2147483647) and 0 (an EMC cap of 0 means none, README 2; devfreq reads a max of 0 as no limit).
/// Throws platform_error when the value is not an integer.
std::optional<std::int64_t> clock_cap(const std::string& value);

/// Whether a PARAM is a CPU cluster's clock (a CLOCK param writing a cpufreq file).
bool is_cpu_clock(const nvpmodel_param& param);

/// The caps `mode` sets: GPU MAX_FREQ, EMC MAX_FREQ and, for the CPU, the lowest MAX_FREQ of the
/// CPU CLOCK params (those writing a cpufreq file) whose core the mode keeps online.
mode_caps caps_of_mode(const nvpmodel_conf& conf, const nvpmodel_mode& mode);

/// The values of `offered` at or under `cap` (all of them without a cap), in their order.
std::vector<std::int64_t> under_cap(const std::vector<std::int64_t>& offered, std::optional<std::int64_t> cap);

/// Throws validation_error(field, "<setting> <value> is above the cap of power mode <mode>:
/// <cap>; ...", "above_cap") when `value` is above `cap`; returns `value`. `mode` names the mode
/// ("2 (MODE_30W)"), `offered` the values under the cap for the message.
std::int64_t check_under_cap(std::int64_t value, std::optional<std::int64_t> cap, const std::vector<std::int64_t>& offered,
                             const std::string& field, const std::string& setting, const std::string& mode);

}  // namespace jetperf::platform
