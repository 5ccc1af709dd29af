#pragma once
// A group of channels read together on one sampler tick (the rails of one board, the clocks, the
// thermal zones, NVML, RAPL, a tegrastats stream). The sampler flattens the groups into its channels.
#include <cstdint>
#include <optional>
#include <vector>

#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::telemetry {

class sensor {
 public:
  virtual ~sensor() = default;
  /// Channels of this group, fixed after construction.
  virtual std::vector<channel_info> channels() const = 0;
  /// Writes values[i] for channel i; NaN where there is no value this tick (offline, unreadable).
  virtual void read(std::int64_t t_ns, double* values) = 0;
  /// Shortest useful interval between reads in ns (0: every tick). Utilisation from jiffies, for
  /// example, means nothing over 1 ms.
  virtual std::int64_t min_interval_ns() const { return 0; }
  /// Local index of the channel giving the module's total power, when this group has one.
  virtual std::optional<int> total_power_channel() const { return std::nullopt; }
  /// How long one file read took in the last read(), in seconds, for a group that times one (the
  /// sensor card's read latency: one sysfs read, not a group's read shared over its channels);
  /// nullopt when the group times none.
  virtual std::optional<double> last_file_read_s() const { return std::nullopt; }
};

}  // namespace jetperf::telemetry
