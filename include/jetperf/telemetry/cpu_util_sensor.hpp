#pragma once
// CPU utilisation from /proc/stat jiffies (through sysfs_root so tests can fake it): "util.cpu"
// for all cores and "util.cpuN" per core, in %, over the interval since the previous read.
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/detail/sysfs_file.hpp>
#include <jetperf/telemetry/sensor.hpp>

namespace jetperf::telemetry {

/// busy and total jiffies of one `cpu` line of /proc/stat.
struct cpu_jiffies {
  unsigned long long busy = 0;
  unsigned long long total = 0;
};

/// Parses /proc/stat text: index 0 is the aggregate "cpu" line, then cpu0, cpu1, ... by number
/// (an offline core's line is absent; its slot stays zero).
std::vector<cpu_jiffies> parse_proc_stat(const std::string& text);

class cpu_util_sensor : public sensor {
 public:
  /// Jiffies tick at 100-250 Hz, so reads closer than `min_interval_ns` (default 100 ms) mean nothing.
  explicit cpu_util_sensor(const platform::sysfs_root& root, std::int64_t min_interval_ns = 100'000'000);

  std::vector<channel_info> channels() const override { return channels_; }
  void read(std::int64_t t_ns, double* values) override;
  std::int64_t min_interval_ns() const override { return min_interval_ns_; }

 private:
  detail::sysfs_file file_;
  std::vector<channel_info> channels_;
  std::vector<cpu_jiffies> last_;
  std::int64_t min_interval_ns_;
};

}  // namespace jetperf::telemetry
