#pragma once
// Prometheus text exposition (format 0.0.4) of the latest telemetry, the sampler's health and the
// job state the caller passes in. A pure function: the API layer serves it at GET /metrics.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/telemetry/energy_meter.hpp>
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

/// One job on jetperf_job_energy_joules_total and jetperf_job_progress_ratio: only the running
/// job and the last finished one are passed, so the series stay bounded.
struct prometheus_job_energy {
  std::int64_t job_id = 0;
  std::string kind;
  double joules = 0;
  std::optional<double> progress_ratio;  ///< points done / points total; nullopt: unknown
};

/// jetperf_build_info{version,board,model,l4t,simulated} 1.
struct prometheus_build_info {
  std::string version;
  std::string board;  ///< board_name from the daemon's config (the lab's name for the board)
  std::string model;  ///< the module ("AGX Orin"), or the family when it has no module name
  std::string l4t;    ///< "" when unknown (a simulated or non-Jetson host)
  bool simulated = false;
};

/// The energy counters and job series; `channels` of render_prometheus index channel_joules.
struct prometheus_energy {
  energy_totals totals;
  std::vector<prometheus_job_energy> jobs;
  /// Wall-clock ms of totals.t_ns, written after each energy counter's value: Prometheus then
  /// stamps the value with the instant it is exact at rather than the scrape's start, so rate()
  /// does not move with how long the scrape took to reach the daemon. nullopt: no timestamps.
  std::optional<std::int64_t> timestamp_ms;
};

/// A clock against the lowest frequency the board is set to run it at (its floor: the minimum
/// of its governor's range, or the locked rate). Read below it, beyond 2%, something else holds
/// it down: thermal or over-current throttling (shared/jetson/README.md, pitfall 7).
struct prometheus_clock_floor {
  std::string domain;  ///< "gpu", "cpu0", ..., "emc"
  double current_hz = 0;
  double floor_hz = 0;
  bool throttled() const { return current_hz < floor_hz * 0.98; }
};

/// `values[i]` is channel i's latest value (nullopt: not exported). Channels map to
/// jetperf_rail_power_watts{rail,role} (role: telemetry/rail_role.hpp), jetperf_power_total_watts, jetperf_clock_hz{domain},
/// jetperf_temperature_celsius{zone}, jetperf_utilisation_ratio{domain} (percent / 100). Energy:
/// jetperf_rail_energy_joules_total{rail,role}, jetperf_energy_joules_total (the total power channel),
/// jetperf_job_energy_joules_total{job_id,kind}, jetperf_job_progress_ratio{job_id,kind}.
/// Throttle state: jetperf_clock_floor_hz{domain} and jetperf_clock_throttled{domain} (0 or 1)
/// per entry of `floors`.
std::string render_prometheus(const std::vector<channel_info>& channels,
                              const std::vector<std::optional<double>>& values,
                              std::optional<int> total_power_channel, const sampler_health& health,
                              const prometheus_job_state& job, const prometheus_energy& energy = {},
                              const std::optional<prometheus_build_info>& build = std::nullopt,
                              const std::vector<prometheus_clock_floor>& floors = {});

/// Label value escaping: backslash, double quote and newline.
std::string prometheus_escape_label(const std::string& value);

}  // namespace jetperf::telemetry
