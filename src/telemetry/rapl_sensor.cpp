#include <jetperf/telemetry/rapl_sensor.hpp>

#include <cmath>
#include <limits>

#include <spdlog/spdlog.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/sysfs_paths.hpp>

namespace jetperf::telemetry {

std::uint64_t rapl_energy_delta_uj(std::uint64_t last, std::uint64_t now, std::uint64_t max_range_uj) {
  if (now >= last) return now - last;
  // The counter wrapped: it runs from 0 to max_range_uj inclusive.
  return max_range_uj - last + now + 1;
}

rapl_sensor::rapl_sensor(const platform::sysfs_root& root) {
  const std::string base = platform::paths::powercap_class;
  for (const auto& e : root.list(base)) {
    if (e.rfind("intel-rapl:", 0) != 0) continue;
    std::string dir = base + "/" + e;
    auto name = root.try_read(dir + "/name");
    auto range = root.try_read_int(dir + "/max_energy_range_uj");
    domain d;
    d.energy = detail::sysfs_file(root.host_path(dir + "/energy_uj"));
    if (!name || !range || !d.energy.ok()) continue;
    try {
      if (!d.energy.read_int()) continue;
    } catch (const platform_error& e) {
      // A counter that reads garbage would fail every tick: leave the domain out from the start.
      spdlog::warn("telemetry: RAPL domain {} left out: {}", dir, e.what());
      continue;
    }
    d.max_range_uj = static_cast<std::uint64_t>(*range);
    // "intel-rapl:0" is a package; "intel-rapl:0:1" a sub-domain already inside it.
    d.top_level = e.find(':', 11) == std::string::npos;
    std::string channel = "rail.rapl." + *name;
    if (!d.top_level) {
      // A sub-domain is named under its package: rail.rapl.package-0.core.
      auto parent = root.try_read(base + "/" + e.substr(0, e.rfind(':')) + "/name");
      channel = "rail.rapl." + parent.value_or(e.substr(0, e.rfind(':'))) + "." + *name;
    }
    else if (name->rfind("package", 0) != 0 && *name != "dram") d.top_level = false;  // psys overlaps packages
    channels_.push_back({channel, "W", channel_kind::power, dir + "/energy_uj"});
    domains_.push_back(std::move(d));
  }
  if (!domains_.empty()) channels_.push_back({"power.total", "W", channel_kind::power, "sum of RAPL packages"});
}

void rapl_sensor::read(std::int64_t t_ns, double* values) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double total = 0;
  bool complete = true;
  for (std::size_t i = 0; i < domains_.size(); ++i) {
    auto& d = domains_[i];
    values[i] = nan;
    auto now = d.energy.read_int();
    if (!now || *now < 0) {
      complete = complete && !d.top_level;
      continue;
    }
    auto uj = static_cast<std::uint64_t>(*now);
    if (d.have_last && t_ns > d.last_ns) {
      double joules = static_cast<double>(rapl_energy_delta_uj(d.last_uj, uj, d.max_range_uj)) / 1e6;
      values[i] = joules / (static_cast<double>(t_ns - d.last_ns) / 1e9);
    }
    if (d.top_level) {
      if (std::isnan(values[i])) complete = false;
      else total += values[i];
    }
    d.have_last = true;
    d.last_uj = uj;
    d.last_ns = t_ns;
  }
  if (!domains_.empty()) values[domains_.size()] = complete ? total : nan;
}

std::optional<int> rapl_sensor::total_power_channel() const {
  if (domains_.empty()) return std::nullopt;
  return static_cast<int>(domains_.size());
}

}  // namespace jetperf::telemetry
