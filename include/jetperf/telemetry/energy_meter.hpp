#pragma once
// Energy counters for Prometheus: every power channel integrated over every sample since the
// daemon started, and the module total of the job the samples were taken under. Counters only
// grow: power below zero counts as zero, and a gap longer than max_gap_ns (the sampler was
// stopped, or the sensor went offline) is not bridged, so the counters never invent energy
// across a restart of the sampler either. Only the running job and the last finished one are
// kept, so no sequence of jobs grows the meter.
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::telemetry {

struct job_energy {
  std::int64_t job_id = 0;
  double joules = 0;  ///< module total power integrated while the job was attached
};

struct energy_totals {
  /// Index-aligned with the channels the meter was built with; 0 for channels that are not power.
  std::vector<double> channel_joules;
  std::optional<int> total_channel;
  std::optional<job_energy> running;
  std::optional<job_energy> last_finished;
  /// CLOCK_MONOTONIC time of the newest sample integrated (0: none yet): the counters' values
  /// are exact at that instant, which /metrics states as the samples' timestamp.
  std::int64_t t_ns = 0;
};

class energy_meter {
 public:
  /// `channels` and `total_channel` as the sampler has them; a gap between two samples of a
  /// channel longer than `max_gap_ns` adds nothing.
  energy_meter(std::vector<channel_info> channels, std::optional<int> total_channel,
               std::int64_t max_gap_ns = k_default_max_gap_ns);

  /// One tick's samples (each at its own t_ns), taken while `job_id` was attached (0: none).
  /// A change of job_id ends the previous job (it becomes the last finished one).
  void add(std::int64_t job_id, const std::vector<sample>& samples);
  /// The next sample of each channel starts a new segment (the sampler starts again).
  void break_continuity();
  energy_totals totals() const;

  /// Longer than any sensor's update period (tegrastats at 1 s at most, the idle tick 100 ms).
  static constexpr std::int64_t k_default_max_gap_ns = 5'000'000'000;

 private:
  struct channel_state {
    bool power = false;
    bool has_last = false;
    std::int64_t last_t_ns = 0;
    double last_w = 0;
    double joules = 0;
  };

  std::int64_t max_gap_ns_;
  std::optional<int> total_channel_;
  mutable std::mutex mutex_;
  std::vector<channel_state> state_;
  std::optional<job_energy> running_;
  std::optional<job_energy> last_finished_;
  /// The job attached when the total channel's previous sample was taken: a segment counts for
  /// a job only when the job was attached at both of its ends.
  std::int64_t total_last_job_ = 0;
  std::int64_t newest_t_ns_ = 0;
};

}  // namespace jetperf::telemetry
