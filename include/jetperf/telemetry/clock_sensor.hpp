#pragma once
// Clocks and GPU load: "clock.gpu" (Hz, devfreq cur_freq), "util.gpu" (%, device `load` per-mille / 10),
// "clock.emc" (Hz, debugfs when readable), "clock.cpuN" (Hz, scaling_cur_freq kHz x 1000).
// The GPU is found as jtop finds it: /sys/class/devfreq/*/device/of_node/name naming a GPU.
#include <optional>
#include <string>

#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/detail/sysfs_file.hpp>
#include <jetperf/telemetry/sensor.hpp>

namespace jetperf::telemetry {

/// The GPU's devfreq directory and device directory, as board paths.
struct gpu_dirs {
  std::string devfreq_dir;
  std::string device_dir;
};

/// Looks through /sys/class/devfreq for an entry whose device/of_node/name is gv11b, gp10b, ga10b,
/// gb10b or contains "gpu"; nullopt when none.
std::optional<gpu_dirs> find_gpu_dirs(const platform::sysfs_root& root);

class clock_sensor : public sensor {
 public:
  /// `gpu` overrides discovery (e.g. from platform's board detection).
  explicit clock_sensor(const platform::sysfs_root& root, std::optional<gpu_dirs> gpu = std::nullopt,
                        std::int64_t min_interval_ns = 0);

  std::vector<channel_info> channels() const override { return channels_; }
  void read(std::int64_t t_ns, double* values) override;
  std::int64_t min_interval_ns() const override { return min_interval_ns_; }
  bool empty() const { return files_.empty(); }

 private:
  std::vector<channel_info> channels_;
  std::vector<detail::sysfs_file> files_;
  std::vector<double> scale_;  ///< file value x scale = channel value
  std::vector<std::optional<detail::sysfs_file>> online_;  ///< per channel: the CPU core's online file
  std::int64_t min_interval_ns_;
};

}  // namespace jetperf::telemetry
