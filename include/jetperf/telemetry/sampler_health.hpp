#pragma once
// How well the sampler keeps its period, and what it costs: exported at /metrics and /v1/telemetry.
#include <cstdint>

namespace jetperf::telemetry {

struct sampler_health {
  bool running = false;
  double period_s = 0;            ///< tick period with a job attached: a point's while it asks, else the configured one
  double idle_period_s = 0;       ///< tick period without a job (period_s when there is none)
  bool full_rate = true;          ///< ticking at period_s now
  double achieved_rate_hz = 0;    ///< ticks per second at period_s: this stretch, or the last one at the configured period while idle
  double jitter_mean_s = 0;       ///< wake-up lateness against the absolute deadline, recent full-rate ticks
  double jitter_p50_s = 0;
  double jitter_p99_s = 0;
  std::uint64_t ticks = 0;
  std::uint64_t missed_ticks = 0; ///< deadlines skipped because a tick ran past the next one
  double cpu_time_s = 0;          ///< CPU time of the sampling thread
  double cpu_share = 0;           ///< cpu_time_s / seconds since start (1.0 = one core)
  std::uint64_t samples = 0;      ///< samples produced
  std::uint64_t batches_flushed = 0;
};

}  // namespace jetperf::telemetry
