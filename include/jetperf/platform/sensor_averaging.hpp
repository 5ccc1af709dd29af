#pragma once
// The power sensors' averaging count: the mainline ina3221 hwmon driver (L4T r34+) exposes it as
// a writable `samples` file beside `update_interval` (Linux Documentation/hwmon/ina3221.rst:
// update_interval = channels x samples x (bus + shunt conversion time)). Fewer samples give a
// reading that covers a shorter stretch of time, and more of them per second; the r32 ina3221x
// IIO driver has no such file, so those boards offer nothing here.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/platform/sysfs_root.hpp>

namespace jetperf::platform {

/// The averaging counts the INA3221 has (its AVG field), ascending.
const std::vector<std::int64_t>& ina3221_sample_counts();
/// Throws validation_error(field) naming the counts when `samples` is not one of `offered`.
void check_sensor_samples(std::int64_t samples, const std::vector<std::int64_t>& offered, const std::string& field);

/// One chip's averaging as read from its hwmon folder.
struct sensor_chip_averaging {
  std::string dir;                               ///< board path of the hwmon folder
  std::int64_t samples = 0;                      ///< averaging count
  std::optional<std::int64_t> update_interval_ms;  ///< what the driver says a reading takes
};

/// The INA3221 hwmon folders with a `samples` file, in /sys/bus/i2c/devices order (each chip
/// once, however many links reach it).
std::vector<std::string> find_averaging_sensors(const sysfs_root& root);

/// Each folder's averaging; a folder whose `samples` cannot be read is left out.
std::vector<sensor_chip_averaging> read_sensor_averaging(const sysfs_root& root, const std::vector<std::string>& dirs);

/// The slowest chip's update interval in seconds: how often every rail's reading has changed;
/// nullopt when no chip says.
std::optional<double> slowest_update_interval_s(const std::vector<sensor_chip_averaging>& chips);
/// The slowest chip's update interval per averaged sample, in ms (its interval over its count:
/// what another count's interval follows from); nullopt when no chip says its interval.
std::optional<double> slowest_ms_per_sample(const std::vector<sensor_chip_averaging>& chips);

/// "<dir>: samples=N update_interval_ms=M; ..." (the interval where the chip says it): the
/// configuration a sensor card was measured under, compared to tell a stale card; "" for none.
std::string describe_sensor_averaging(const std::vector<sensor_chip_averaging>& chips);

}  // namespace jetperf::platform
