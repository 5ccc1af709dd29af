#pragma once
// x86 RAPL energy counters (/sys/class/powercap/intel-rapl:*/energy_uj) turned into power:
// "rail.rapl.<domain>" (W) per domain, and "power.total" summing the top-level package/dram domains.
// The counters wrap at max_energy_range_uj.
#include <cstdint>

#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/detail/sysfs_file.hpp>
#include <jetperf/telemetry/sensor.hpp>

namespace jetperf::telemetry {

/// Energy between two counter readings, allowing one wrap-around at `max_range_uj`.
std::uint64_t rapl_energy_delta_uj(std::uint64_t last, std::uint64_t now, std::uint64_t max_range_uj);

class rapl_sensor : public sensor {
 public:
  /// Opens every readable domain; empty() when none (not x86, or energy_uj root-only).
  explicit rapl_sensor(const platform::sysfs_root& root);

  std::vector<channel_info> channels() const override { return channels_; }
  void read(std::int64_t t_ns, double* values) override;
  std::optional<int> total_power_channel() const override;
  bool empty() const { return domains_.empty(); }

 private:
  struct domain {
    detail::sysfs_file energy;
    std::uint64_t max_range_uj = 0;
    bool top_level = false;
    bool have_last = false;
    std::uint64_t last_uj = 0;
    std::int64_t last_ns = 0;
  };
  std::vector<channel_info> channels_;
  std::vector<domain> domains_;
};

}  // namespace jetperf::telemetry
