#pragma once
// INA3221 rails found as jtop finds them: /sys/bus/i2c/devices/*/name containing "ina3221" (and
// /sys/bus/i2c/drivers/ina3221x/*), then the r32 IIO folder (rail_name_K, in_powerK_input mW) or
// the r34+ hwmon folder (inK_label, inK_input mV x currK_input mA). NC channels and the in7 sum
// channel are skipped; hwmonN and iio:deviceN are never hard-coded. An INA238 (AGX Thor's carrier
// VIN monitor, gh rbonghi/jetson_stats PR #900) is one rail, "VIN", read from hwmon power1_input
// in microwatts: the board's total input, which replaces the module rails' sum.
#include <optional>
#include <string>
#include <vector>

#include <jetperf/platform/sysfs_root.hpp>

namespace jetperf::telemetry {

/// iio: in_powerK_input (mW); hwmon: inK_input (mV) x currK_input (mA); hwmon_power: power1_input (uW).
enum class rail_driver { iio, hwmon, hwmon_power };

struct rail_desc {
  std::string name;          ///< label as the board prints it, e.g. "VDD_GPU_SOC"
  rail_driver driver = rail_driver::hwmon;
  std::string role;          ///< rail_role(name): "total", "gpu", "cpu", "soc", "cv", "ddr", "io", "other"
  std::string power_path;    ///< iio: in_powerK_input (mW); hwmon_power: power1_input (uW); board path
  std::string voltage_path;  ///< hwmon: inK_input (mV)
  std::string current_path;  ///< hwmon: currK_input (mA)
  /// hwmon: the chip's update_interval (ms in sysfs, seconds here): how often a reading changes.
  std::optional<double> update_interval_s;
};

/// Every rail of every INA3221 on the board, in chip then channel order, then the INA238 VIN;
/// empty when none. USB-C UCSI power supplies (/sys/class/power_supply/ucsi-source-psy-*) report
/// negotiated PD limits, not measurements, and are never rails.
std::vector<rail_desc> discover_rails(const platform::sysfs_root& root);

/// The slowest rail's update interval: how often the power readings really change (what a
/// measurement window is sized from); nullopt when no rail says (IIO, older drivers).
std::optional<double> rails_update_interval_s(const std::vector<rail_desc>& rails);

/// Index of the input rail (VIN on Thor's carrier, else VDD_IN or POM_5V_IN) whose reading already is the total and
/// must not be added to the sub-rails; nullopt on boards that need a computed sum (AGX Xavier, AGX Orin).
std::optional<std::size_t> input_rail_index(const std::vector<rail_desc>& rails);

/// Plausibility of one reading (W per rail): sub-rails summing above the input rail by more than
/// 10% + 0.5 W, negative or > 200 W values. One message per problem; empty when plausible.
std::vector<std::string> rail_sanity_warnings(const std::vector<rail_desc>& rails,
                                              const std::vector<double>& watts);

}  // namespace jetperf::telemetry
