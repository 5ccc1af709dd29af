#include <jetperf/platform/sensor_averaging.hpp>

#include <set>

#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::platform {

const std::vector<std::int64_t>& ina3221_sample_counts() {
  static const std::vector<std::int64_t> counts = {1, 4, 16, 64, 128, 256, 512, 1024};
  return counts;
}

std::vector<std::string> find_averaging_sensors(const sysfs_root& root) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  const std::string devices = paths::i2c_devices;
  for (const auto& dev : root.list(devices)) {
    const std::string path = devices + "/" + dev;
    const auto name = root.try_read(path + "/name");
    if (!name || name->find("ina3221") == std::string::npos) continue;
    for (const auto& h : root.list(path + "/hwmon")) {
      if (h.compare(0, 5, "hwmon") != 0) continue;
      const std::string dir = path + "/hwmon/" + h;
      if (!root.exists(dir + "/samples")) continue;
      if (seen.insert(root.resolve(dir).value_or(dir)).second) out.push_back(dir);
    }
  }
  return out;
}

std::vector<sensor_chip_averaging> read_sensor_averaging(const sysfs_root& root, const std::vector<std::string>& dirs) {
  std::vector<sensor_chip_averaging> out;
  for (const auto& dir : dirs) {
    const auto samples = root.try_read_int(dir + "/samples");
    if (!samples || *samples <= 0) continue;
    sensor_chip_averaging c{dir, *samples, std::nullopt};
    if (const auto ms = root.try_read_int(dir + "/update_interval"); ms && *ms >= 0) c.update_interval_ms = *ms;
    out.push_back(std::move(c));
  }
  return out;
}

std::optional<double> slowest_update_interval_s(const std::vector<sensor_chip_averaging>& chips) {
  std::optional<double> slowest;
  for (const auto& c : chips)
    if (c.update_interval_ms && *c.update_interval_ms > 0) {
      const double s = static_cast<double>(*c.update_interval_ms) / 1e3;
      if (!slowest || s > *slowest) slowest = s;
    }
  return slowest;
}

}  // namespace jetperf::platform
