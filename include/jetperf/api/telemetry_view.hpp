#pragma once
// What the telemetry routes (/v1/telemetry, its stream, /metrics) see of telemetry: channels, their
// latest readings and the sampler's health. Narrow on purpose: API tests use a fake, and the
// daemon adapts the real sampler with sampler_telemetry_view.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/telemetry/energy_meter.hpp>
#include <jetperf/telemetry/sample_source.hpp>
#include <jetperf/telemetry/sampler_health.hpp>

namespace jetperf::api {

/// The latest reading of one channel; `value` is nullopt until read or while its sensor is offline.
struct channel_reading {
  std::optional<double> value;
  std::int64_t t_ns = 0;  ///< CLOCK_MONOTONIC time of the reading; 0 when never read
};

class telemetry_view {
 public:
  virtual ~telemetry_view() = default;
  /// Channels by index (stable for the daemon's lifetime).
  virtual std::vector<telemetry::channel_info> channels() const = 0;
  /// One reading per channel, index-aligned with channels().
  virtual std::vector<channel_reading> latest() const = 0;
  /// Index of the module's total power channel, if any.
  virtual std::optional<int> total_power_channel() const = 0;
  virtual telemetry::sampler_health health() const = 0;
  /// Energy counters since the daemon started (none by default: a view without a meter).
  virtual telemetry::energy_totals energy() const { return {}; }
  /// Every sample with from_ns <= t_ns <= to_ns still held, in time order (none by default: a view
  /// without a sample ring). The stream's full-rate batches (sample_batcher) read from here.
  virtual std::vector<telemetry::sample> window(std::int64_t from_ns, std::int64_t to_ns) const { return {}; }
};

/// "power", "clock", "temperature", "utilisation" or "other".
const char* to_string(telemetry::channel_kind kind);

/// {"t_ns": now, "channels": [{"name","unit","kind","source","value","t_ns"}, ...]}: the payload of
/// GET /v1/telemetry (plus "health") and of every "sample" frame of the telemetry stream.
nlohmann::json telemetry_snapshot_json(const telemetry_view& view);

/// The sampler's health as JSON (every field of sampler_health, same names).
nlohmann::json sampler_health_json(const telemetry::sampler_health& health);

}  // namespace jetperf::api
