#include <jetperf/platform/sensor_averaging.hpp>

#include <algorithm>
#include <set>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::platform {

const std::vector<std::int64_t>& ina3221_sample_counts() {
  static const std::vector<std::int64_t> counts = {1, 4, 16, 64, 128, 256, 512, 1024};
  return counts;
}

void check_sensor_samples(std::int64_t samples, const std::vector<std::int64_t>& offered, const std::string& field) {
  if (std::find(offered.begin(), offered.end(), samples) != offered.end()) return;
  std::string valid;
  for (auto c : offered) valid += (valid.empty() ? "" : ", ") + std::to_string(c);
  throw validation_error(field, "the power sensors average " + valid + " samples, not " + std::to_string(samples));
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

std::optional<double> slowest_ms_per_sample(const std::vector<sensor_chip_averaging>& chips) {
  std::optional<double> slowest;
  for (const auto& c : chips)
    if (c.update_interval_ms && *c.update_interval_ms > 0 && c.samples > 0) {
      const double ms = static_cast<double>(*c.update_interval_ms) / static_cast<double>(c.samples);
      if (!slowest || ms > *slowest) slowest = ms;
    }
  return slowest;
}

std::string describe_sensor_averaging(const std::vector<sensor_chip_averaging>& chips) {
  std::string out;
  for (const auto& c : chips) {
    out += (out.empty() ? "" : "; ") + c.dir + ": samples=" + std::to_string(c.samples);
    if (c.update_interval_ms) out += " update_interval_ms=" + std::to_string(*c.update_interval_ms);
  }
  return out;
}

}  // namespace jetperf::platform
