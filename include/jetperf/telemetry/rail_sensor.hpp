#pragma once
// INA3221 rails as channels "rail.NAME" (W). With an input rail (VDD_IN, POM_5V_IN) that rail is
// the total; otherwise a computed "power.total" channel sums the rails (AGX Xavier, AGX Orin).
// On hwmon (power = bus voltage x current) the current is read at every tick and the bus voltage
// when the current has changed: the chip converts both in each cycle, so a new current means a
// new voltage, and between updates the voltage read would return the same value (each read is a
// syscall, on a board an I2C transfer, at 1 kHz). A voltage read on a clock of its own (every
// 10 ms, as it once was) changed the product between the chip's updates, and those changes,
// on no clock of the chip's, were what the update fit (stats/sensor_updates.hpp) and the sensor
// card were asked to explain: half their changes were unexplained on the simulated AGX Orin.
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/detail/sysfs_file.hpp>
#include <jetperf/telemetry/power_rails.hpp>
#include <jetperf/telemetry/sensor.hpp>

namespace jetperf::telemetry {

class rail_sensor : public sensor {
 public:
  /// Opens every rail file once. Throws platform_error when `rails` is empty.
  rail_sensor(const platform::sysfs_root& root, std::vector<rail_desc> rails);

  std::vector<channel_info> channels() const override;
  void read(std::int64_t t_ns, double* values) override;
  std::optional<int> total_power_channel() const override;
  /// The first rail's power (or current) file, timed on each read().
  std::optional<double> last_file_read_s() const override { return last_file_read_s_; }

  const std::vector<rail_desc>& rails() const { return rails_; }
  /// One reading checked by rail_sanity_warnings(); each warning is also logged.
  std::vector<std::string> sanity_check();

 private:
  struct open_rail {
    detail::sysfs_file power;
    detail::sysfs_file voltage;
    detail::sysfs_file current;
    std::optional<long long> bus_mv;  ///< the bus voltage last read (hwmon)
    std::optional<long long> ma;      ///< the current last read (hwmon)
  };
  std::vector<rail_desc> rails_;
  std::vector<open_rail> files_;
  std::vector<std::string> sources_;
  std::optional<std::size_t> input_;
  std::optional<double> last_file_read_s_;
};

}  // namespace jetperf::telemetry
