#pragma once
// The sampling thread: reads its sensors on an absolute CLOCK_MONOTONIC schedule
// (clock_nanosleep TIMER_ABSTIME), keeps the recent samples in a ring buffer for measurement
// windows, and hands batches to a sink: full rate while a job is attached, decimated history otherwise.
// Without a job it may tick at a slower idle period (an idle daemon should cost next to nothing);
// attaching a job wakes it at once and it ticks at the full period from that instant.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <jetperf/telemetry/energy_meter.hpp>
#include <jetperf/telemetry/sample_archive.hpp>
#include <jetperf/telemetry/sample_source.hpp>
#include <jetperf/telemetry/sampler_health.hpp>
#include <jetperf/telemetry/sensor.hpp>

namespace jetperf::telemetry {

struct sampler_config {
  std::int64_t period_ns = 1'000'000;           ///< tick period (1 ms = 1 kHz for direct rail reads)
  std::size_t ring_capacity = 1u << 20;         ///< samples kept in memory for window()
  std::int64_t flush_interval_ns = 250'000'000; ///< how often the writer hands batches to the sink
  std::int64_t idle_period_ns = 0;              ///< tick period without a job (0: period_ns)
  std::int64_t history_period_ns = 100'000'000; ///< without a job, one tick per period goes to the sink (0: none)
  double update_period_s = 0;                   ///< the sensors' real update period; 0 = period_ns
  /// The shortest period a point may ask for (set_job_tick_period_s); 0: period_ns.
  std::int64_t fast_period_ns = 0;
};

/// Receives batches in time order: job_id 0 is history (no job attached).
using sample_sink = std::function<void(std::int64_t job_id, const std::vector<sample>& batch)>;

class sampler : public sample_source {
 public:
  /// Sensors in priority order: the first one offering a total power channel provides it.
  /// Throws validation_error on a period below 100 us, an idle period below the period or a zero
  /// ring capacity.
  sampler(std::vector<std::unique_ptr<sensor>> sensors, sampler_config config);
  ~sampler() override;
  sampler(const sampler&) = delete;
  sampler& operator=(const sampler&) = delete;

  /// Starts the sampling and writer threads (no-op when running).
  void start();
  /// Stops both threads and flushes what is pending to the sink.
  void stop();
  bool running() const { return running_.load(); }

  /// Set before start() or while running; called from the writer thread.
  void set_sink(sample_sink sink);
  /// Where the sink's job samples can be read back (set before start(); null: nowhere). A
  /// window reaching before the ring's oldest sample reads that part of the attached job from it.
  void set_archive(const sample_archive* archive);
  /// From now on every sample also goes to the sink under `job_id` (> 0); the sampling thread
  /// wakes and ticks at the full period from now.
  void set_job(std::int64_t job_id);
  /// Back to decimated history. Returns when every sample of the job has gone to the sink: the
  /// tick in progress is waited for and what is pending flushed, so that a job marked finished
  /// after it has all its samples stored (its trace read then is the trace read later).
  void clear_job();
  std::optional<std::int64_t> job() const;

  /// One tick at `t_ns`, on the caller's thread (tests, and a source driven by someone else).
  void tick(std::int64_t t_ns);
  /// Hands every pending sample to the sink now, on the caller's thread.
  void flush();

  /// Latest value of each channel (nullopt until read, or when its sensor went offline).
  std::vector<std::optional<double>> latest() const;
  sampler_health health() const;
  /// Energy integrated from every sample since construction (kept across stop() and start()).
  energy_totals energy() const { return energy_->totals(); }

  std::vector<channel_info> channels() const override { return channels_; }
  /// The ring's samples, preceded by the archive's for the part of the attached job the ring
  /// no longer holds.
  std::vector<sample> window(std::int64_t from_ns, std::int64_t to_ns) const override;
  /// Just after the newest sample the ring dropped; with an archive, from the attached job's
  /// first sample (or just after the newest one the archive lost).
  std::int64_t complete_since_ns() const override;
  std::optional<int> total_power_channel() const override { return total_channel_; }
  double update_period_s() const override;
  bool update_period_stated() const override { return config_.update_period_s > 0; }
  double tick_period_s() const override { return static_cast<double>(job_period_ns()) / 1e9; }
  double fastest_tick_period_s() const override { return static_cast<double>(fast_period_ns()) / 1e9; }
  /// Only the sensors that give power are read at a period faster than the configured one: the
  /// clocks, temperatures and utilisation keep the configured period (they are not what a
  /// shorter sensor window needs, and at 1 kHz they would cost most of the tick).
  double set_job_tick_period_s(double period_s) override;
  /// The last k_read_durations kept (the sensor card's read latency).
  std::vector<double> power_read_durations_s() const override;
  static constexpr std::size_t k_read_durations = 4096;

 private:
  struct pending_batch {
    std::int64_t job_id = 0;
    std::vector<sample> samples;
  };

  void run();
  void write_loop();
  /// Appends the ring's samples within [from_ns, to_ns]; ring_mutex_ held.
  void window_locked(std::int64_t from_ns, std::int64_t to_ns, std::vector<sample>& out) const;
  void record_jitter(std::int64_t late_ns);
  /// Keeps one power read's duration (s per channel) in the ring.
  void note_read(double seconds);
  /// Sleeps until `deadline_ns` at the idle period; true when a job or stop() cut it short.
  bool idle_wait(std::int64_t deadline_ns);
  /// Starts a new stretch of the rate statistics when the sampling thread changes period (idle,
  /// full, or a point's).
  void enter_rate(bool full, std::int64_t period_ns, std::int64_t now_ns);
  std::int64_t idle_period_ns() const;
  std::int64_t fast_period_ns() const;
  /// The period in force while a job is attached: a point's, else the configured one.
  std::int64_t job_period_ns() const;

  std::vector<std::unique_ptr<sensor>> sensors_;
  std::vector<std::size_t> offsets_;
  std::vector<std::int64_t> last_read_ns_;
  std::vector<char> read_failed_;  ///< per sensor: a read has failed (warned once), sampler thread only
  std::vector<char> gives_power_;  ///< per sensor: has a power channel (read at a point's faster period)
  std::vector<channel_info> channels_;
  std::optional<int> total_channel_;
  sampler_config config_;
  std::vector<double> values_;
  std::vector<sample> tick_samples_;
  std::unique_ptr<energy_meter> energy_;
  std::mutex tick_mutex_;  ///< held through a tick: clear_job() waits out the one in progress

  mutable std::mutex ring_mutex_;
  std::vector<sample> ring_;
  std::size_t ring_head_ = 0;
  std::size_t ring_size_ = 0;
  bool dropped_ = false;               ///< the ring wrapped: older samples are gone from memory
  std::int64_t dropped_until_ns_ = 0;  ///< time of the newest sample it dropped
  std::int64_t ring_job_ = 0;          ///< the job the newest tick's samples went to (0: none)
  std::int64_t ring_job_since_ns_ = 0; ///< time of that job's first tick
  std::vector<double> latest_;
  const sample_archive* archive_ = nullptr;

  mutable std::mutex pending_mutex_;
  std::vector<pending_batch> pending_;
  sample_sink sink_;
  std::mutex sink_mutex_;
  std::atomic<std::int64_t> job_id_{0};
  std::atomic<std::int64_t> point_period_ns_{0};  ///< a point's period (0: the configured one)

  mutable std::mutex read_mutex_;      ///< guards the durations below
  std::vector<double> read_durations_;  ///< ring of k_read_durations (see power_read_durations_s)
  std::size_t read_next_ = 0;
  mutable std::mutex health_mutex_;
  std::vector<std::int64_t> jitter_ns_;  ///< ring of recent lateness values
  std::size_t jitter_next_ = 0;
  std::uint64_t ticks_ = 0;
  std::uint64_t missed_ = 0;
  std::int64_t history_due_ns_ = 0;      ///< when the next history sample is due
  bool history_taken_ = false;
  bool full_rate_ = true;                ///< the sampling thread's current period is the full one
  std::int64_t stretch_period_ns_ = 0;   ///< the full period the current stretch ticks at
  std::int64_t stretch_since_ns_ = 0;    ///< start of the current stretch at one period
  std::uint64_t stretch_ticks_ = 0;
  double last_full_rate_hz_ = 0;         ///< the last finished stretch at the full period
  std::uint64_t samples_ = 0;
  std::uint64_t batches_ = 0;
  std::int64_t started_ns_ = 0;
  std::int64_t stopped_ns_ = 0;
  double final_cpu_s_ = 0;

  std::atomic<bool> running_{false};
  std::atomic<bool> stopping_{false};
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  std::thread thread_;
  std::thread writer_;
};

}  // namespace jetperf::telemetry
