#pragma once
// What measurement code sees of telemetry: named channels and the recent samples of a time
// window, all on CLOCK_MONOTONIC ns. The sampler implements it over its ring buffer; tests
// implement it with synthetic streams of known answers.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace jetperf::telemetry {

enum class channel_kind { power, clock, temperature, utilisation, other };

struct channel_info {
  std::string name;    ///< "rail.VDD_GPU_SOC" (W), "power.total" (W), "clock.gpu" (Hz), "temp.GPU" (C)
  std::string unit;    ///< "W", "Hz", "kHz", "C", "%"
  channel_kind kind = channel_kind::other;
  std::string source;  ///< provenance: sysfs path, "tegrastats", "nvml", "rapl"
};

struct sample {
  int channel = 0;        ///< index into sample_source::channels()
  std::int64_t t_ns = 0;  ///< CLOCK_MONOTONIC
  double value = 0;       ///< in the channel's unit
};

class sample_source {
 public:
  virtual ~sample_source() = default;
  /// Channels by index; stable for the daemon's lifetime.
  virtual std::vector<channel_info> channels() const = 0;
  /// Samples with from_ns <= t_ns <= to_ns still held (in memory, or where the source keeps
  /// older ones), ordered by time.
  virtual std::vector<sample> window(std::int64_t from_ns, std::int64_t to_ns) const = 0;
  /// The earliest time from which window() answers in full: older samples are no longer held
  /// (a ring buffer that wrapped). INT64_MIN while nothing was ever dropped.
  virtual std::int64_t complete_since_ns() const { return std::numeric_limits<std::int64_t>::min(); }
  /// Index of the channel giving the module's total power (input rail or computed sum).
  virtual std::optional<int> total_power_channel() const = 0;
  /// The sensor's real update period in seconds (what a measurement window is sized from).
  virtual double update_period_s() const = 0;
  /// Whether update_period_s is what the sensor's driver states (hwmon's update_interval,
  /// tegrastats' interval); false where no driver states one (L4T r32's ina3221x) and it is only
  /// the sampler's own period, which a measurement must not take for the sensor's.
  virtual bool update_period_stated() const { return true; }
  /// How often the sensors are read while a job runs, in seconds (the period in force now, see
  /// set_job_tick_period_s); 0 when not known.
  virtual double tick_period_s() const { return 0; }
  /// The shortest tick period a point may ask for (a source that cannot change its rate: its own).
  virtual double fastest_tick_period_s() const { return tick_period_s(); }
  /// Reads the power sensors every `period_s` while a job runs, within fastest_tick_period_s()
  /// and the configured period (a point whose sensor window is shorter than the configured
  /// polls can place, measure/sensor_averaging_scope.hpp); 0 puts the configured period back.
  /// Returns the period in force. A source that cannot change its rate keeps it.
  virtual double set_job_tick_period_s(double /*period_s*/) { return tick_period_s(); }
  /// How long the latest reads of the power sensors took, in seconds: one file's read where the
  /// group times one (sensor::last_file_read_s), else the group's read over its channels; oldest
  /// first; empty when the source does not time them.
  virtual std::vector<double> power_read_durations_s() const { return {}; }
};

}  // namespace jetperf::telemetry
