#include <jetperf/telemetry/rail_sensor.hpp>

#include <cmath>
#include <limits>

#include <spdlog/spdlog.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>

namespace jetperf::telemetry {

rail_sensor::rail_sensor(const platform::sysfs_root& root, std::vector<rail_desc> rails) : rails_(std::move(rails)) {
  if (rails_.empty()) throw platform_error("no INA3221 or INA238 power rails found under " + root.root());
  for (const auto& r : rails_) {
    open_rail f;
    if (r.driver != rail_driver::hwmon) {
      f.power = detail::sysfs_file(root.host_path(r.power_path));
      sources_.push_back(r.power_path);
    } else {
      f.voltage = detail::sysfs_file(root.host_path(r.voltage_path));
      f.current = detail::sysfs_file(root.host_path(r.current_path));
      sources_.push_back(r.voltage_path + " x " + r.current_path);
    }
    files_.push_back(std::move(f));
  }
  input_ = input_rail_index(rails_);
}

std::vector<channel_info> rail_sensor::channels() const {
  std::vector<channel_info> out;
  for (std::size_t i = 0; i < rails_.size(); ++i) {
    out.push_back({"rail." + rails_[i].name, "W", channel_kind::power, sources_[i]});
  }
  if (!input_) out.push_back({"power.total", "W", channel_kind::power, "sum of rails"});
  return out;
}

void rail_sensor::read(std::int64_t /*t_ns*/, double* values) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  bool complete = true;
  // One sysfs read timed whole (the first rail's power or current file): on a board each is an
  // I2C transfer or a driver's cached value, and the card reports that, not a group's share.
  const auto timed = [this](std::size_t i, const detail::sysfs_file& file) {
    if (i != 0) return file.read_int();
    const auto from = monotonic_ns();
    auto value = file.read_int();
    last_file_read_s_ = static_cast<double>(monotonic_ns() - from) * 1e-9;
    return value;
  };
  for (std::size_t i = 0; i < files_.size(); ++i) {
    double w = nan;
    if (rails_[i].driver == rail_driver::iio) {
      if (auto mw = timed(i, files_[i].power)) w = static_cast<double>(*mw) / 1000.0;
    } else if (rails_[i].driver == rail_driver::hwmon_power) {
      if (auto uw = timed(i, files_[i].power)) w = static_cast<double>(*uw) / 1e6;
    } else {
      auto& f = files_[i];
      const auto ma = timed(i, f.current);
      // A new current is a new conversion: its voltage is new too (the header says why not on
      // a clock of its own).
      if (!f.bus_mv || !ma || ma != f.ma) f.bus_mv = f.voltage.read_int();
      f.ma = ma;
      const auto& mv = f.bus_mv;
      // mV x mA = uW
      if (mv && ma) w = static_cast<double>(*mv) * static_cast<double>(*ma) / 1e6;
    }
    values[i] = w;
    if (std::isnan(w)) {
      complete = false;
    } else {
      sum += w;
    }
  }
  // A sum with a missing rail would be a wrong total, not a smaller one.
  if (!input_) values[files_.size()] = complete ? sum : nan;
}

std::optional<int> rail_sensor::total_power_channel() const {
  if (input_) return static_cast<int>(*input_);
  return static_cast<int>(rails_.size());
}

std::vector<std::string> rail_sensor::sanity_check() {
  std::vector<double> values(channels().size());
  read(0, values.data());
  values.resize(rails_.size());
  auto warnings = rail_sanity_warnings(rails_, values);
  for (const auto& w : warnings) spdlog::warn("telemetry: {}", w);
  return warnings;
}

}  // namespace jetperf::telemetry
