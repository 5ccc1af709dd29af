#pragma once
// NVML through dlopen("libnvidia-ml.so.1"): no build-time dependency, and a board without NVML
// (every Jetson before JetPack 7) just has no NVML channels. Queries answering NotSupported (JetPack
// 7 power/clock, README 10.9) or missing symbols drop that channel instead of failing.
#include <memory>
#include <string>

#include <jetperf/telemetry/sensor.hpp>

namespace jetperf::telemetry {

/// What NVML offered at start, per GPU (for /v1/board and logs).
struct nvml_device_info {
  std::string name;
  bool power = false;
  bool energy = false;
  bool clocks = false;
  bool temperature = false;
  bool utilisation = false;
};

class nvml_sensor : public sensor {
 public:
  /// Loads `library` and initialises NVML. Throws unavailable when the library, nvmlInit_v2 or
  /// nvmlDeviceGetCount_v2 is missing or init fails.
  explicit nvml_sensor(const std::string& library = "libnvidia-ml.so.1");
  ~nvml_sensor() override;
  nvml_sensor(const nvml_sensor&) = delete;
  nvml_sensor& operator=(const nvml_sensor&) = delete;

  /// Per GPU i: "nvml.gpuI.power" (W), "nvml.gpuI.energy" (J since driver load), "clock.nvml.gpuI.sm",
  /// "clock.nvml.gpuI.mem" (Hz), "clock.nvml.gpuI.app_sm" (Hz, application clock), "temp.nvml.gpuI" (C),
  /// "util.nvml.gpuI" and "util.nvml.gpuI.mem" (%). Only those that answered at start.
  std::vector<channel_info> channels() const override;
  void read(std::int64_t t_ns, double* values) override;
  std::optional<int> total_power_channel() const override;
  const std::vector<nvml_device_info>& devices() const { return devices_; }

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
  std::vector<nvml_device_info> devices_;
};

}  // namespace jetperf::telemetry
