#pragma once
// The fixed-function engines' clocks from debugfs (root only), as tegrastats reads them:
// "clock.<engine>" in Hz for each engine clock the board has (platform/engine_clocks.hpp), 0 while
// its clock is gated (tegrastats' "off"). No EMC utilisation here: on t234 actmon's counter comes
// from BPMP firmware in units nobody has published (jtop's conversion reads 0 under any load), so
// jetperf takes it only from tegrastats' own EMC_FREQ percentage.
#include <optional>
#include <string>
#include <vector>

#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/telemetry/detail/sysfs_file.hpp>
#include <jetperf/telemetry/sensor.hpp>

namespace jetperf::telemetry {

class engine_sensor : public sensor {
 public:
  explicit engine_sensor(const platform::sysfs_root& root, std::int64_t min_interval_ns = 0);

  std::vector<channel_info> channels() const override { return channels_; }
  void read(std::int64_t t_ns, double* values) override;
  std::int64_t min_interval_ns() const override { return min_interval_ns_; }
  bool empty() const { return channels_.empty(); }

 private:
  struct engine {
    std::optional<detail::sysfs_file> enable, rate;
  };
  std::vector<channel_info> channels_;
  std::vector<engine> engines_;
  std::int64_t min_interval_ns_;
};

}  // namespace jetperf::telemetry
