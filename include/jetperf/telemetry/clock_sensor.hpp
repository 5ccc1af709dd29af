#pragma once
// Clocks and GPU load: "clock.gpu" (Hz, devfreq cur_freq), "util.gpu" (%, device `load` per-mille / 10),
// "clock.emc" (Hz, debugfs when readable), "clock.cpuN" (Hz, scaling_cur_freq kHz x 1000).
// The GPU is the one platform's board detection finds (platform::find_gpu_node).
#include <optional>
#include <string>

#include <jetperf/platform/gpu_node.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/detail/sysfs_file.hpp>
#include <jetperf/telemetry/sensor.hpp>

namespace jetperf::telemetry {

class clock_sensor : public sensor {
 public:
  /// `gpu` overrides the detection (platform::find_gpu_node under `root`).
  explicit clock_sensor(const platform::sysfs_root& root, std::optional<platform::gpu_node> gpu = std::nullopt,
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
