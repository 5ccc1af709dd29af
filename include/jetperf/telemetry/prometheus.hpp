#pragma once
// Prometheus text exposition (format 0.0.4) of the latest telemetry, the sampler's health and the
// job state the caller passes in. A pure function: the API layer serves it at GET /metrics.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/telemetry/sample_source.hpp>
#include <jetperf/telemetry/sampler_health.hpp>

namespace jetperf::telemetry {

struct prometheus_job_state {
  bool running = false;
  std::optional<std::int64_t> job_id;  ///< the running job, labelled on jetperf_job_running
  std::string kind;                    ///< e.g. "gemm"; label when running
  std::int64_t queued = 0;
  std::int64_t completed = 0;
  std::int64_t failed = 0;
};

/// `values[i]` is channel i's latest value (nullopt: not exported). Channels map to
/// jetperf_rail_power_watts{rail}, jetperf_power_total_watts, jetperf_clock_hz{domain},
/// jetperf_temperature_celsius{zone}, jetperf_utilisation_ratio{domain} (percent / 100).
std::string render_prometheus(const std::vector<channel_info>& channels,
                              const std::vector<std::optional<double>>& values,
                              std::optional<int> total_power_channel, const sampler_health& health,
                              const prometheus_job_state& job);

/// Label value escaping: backslash, double quote and newline.
std::string prometheus_escape_label(const std::string& value);

}  // namespace jetperf::telemetry
