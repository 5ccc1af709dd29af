#include <jetperf/telemetry/thermal_sensor.hpp>

#include <algorithm>
#include <limits>
#include <map>

#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::telemetry {

thermal_sensor::thermal_sensor(const platform::sysfs_root& root, bool skip_pmic, std::int64_t min_interval_ns)
    : min_interval_ns_(min_interval_ns) {
  const std::string base = platform::paths::thermal_dir;
  std::vector<std::pair<int, std::string>> zones;
  for (const auto& e : root.list(base)) {
    if (e.rfind("thermal_zone", 0) != 0) continue;
    try {
      zones.emplace_back(std::stoi(e.substr(12)), e);
    } catch (const std::exception&) {
    }
  }
  // Numeric order: thermal_zone10 after thermal_zone9.
  std::sort(zones.begin(), zones.end());
  std::map<std::string, int> seen;
  for (const auto& z : zones) {
    std::string dir = base + "/" + z.second;
    auto type = root.try_read(dir + "/type");
    if (!type || !root.exists(dir + "/temp")) continue;
    std::string name = *type;
    while (!name.empty() && (name.back() == ' ' || name.back() == '\n')) name.pop_back();
    if (skip_pmic && name.rfind("PMIC", 0) == 0) continue;
    int n = ++seen[name];
    std::string channel = "temp." + (n == 1 ? name : name + "_" + std::to_string(n));
    channels_.push_back({channel, "C", channel_kind::temperature, dir + "/temp"});
    files_.emplace_back(root.host_path(dir + "/temp"));
  }
}

void thermal_sensor::read(std::int64_t, double* values) {
  for (std::size_t i = 0; i < files_.size(); ++i) {
    auto v = files_[i].read_int();
    // -256000 (or lower) is the offline marker, not a temperature.
    values[i] = v && *v > -256000 ? static_cast<double>(*v) / 1000.0 : std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace jetperf::telemetry
