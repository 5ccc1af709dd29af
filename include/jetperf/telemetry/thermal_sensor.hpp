#pragma once
// Thermal zones (/sys/devices/virtual/thermal/thermal_zoneN/{type,temp}, millidegrees) as
// channels "temp.TYPE" (C). -256000 means offline: no sample. PMIC reports a fixed trip value,
// not a measurement, and is skipped by default as jtop does.
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/detail/sysfs_file.hpp>
#include <jetperf/telemetry/sensor.hpp>

namespace jetperf::telemetry {

class thermal_sensor : public sensor {
 public:
  /// Opens every zone; an empty sensor when there are none.
  explicit thermal_sensor(const platform::sysfs_root& root, bool skip_pmic = true,
                          std::int64_t min_interval_ns = 0);

  std::vector<channel_info> channels() const override { return channels_; }
  void read(std::int64_t t_ns, double* values) override;
  std::int64_t min_interval_ns() const override { return min_interval_ns_; }
  bool empty() const { return files_.empty(); }

 private:
  std::vector<channel_info> channels_;
  std::vector<detail::sysfs_file> files_;
  std::int64_t min_interval_ns_;
};

}  // namespace jetperf::telemetry
