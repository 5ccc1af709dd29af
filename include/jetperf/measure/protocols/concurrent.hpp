#pragma once
// The protocol `concurrent` (multi_dnn's window): several pipelines of stages run at once, each
// on a thread of its own, over and over, so their stages share the devices as they would on the
// board. After each pipeline's warm-up inferences a common window opens; it closes after a fixed
// time (the seed's protocol) or once every pipeline's throughput and the board's mean power have
// converged (the adaptive rule), or at max_time. An inference belongs to the window when it
// completed inside it; the window's edges are taken under every pipeline's lock, so none is
// counted on the wrong side of an edge. A window other processes took more CPU time from than
// the plan's contention threshold is measured again (up to its max_retries; measure/contention.hpp),
// the pipelines still running between the two, and the one kept says what it met.
// The protocol runs on the point context's clock, which every pipeline's thread reads too (it
// must be safe to use from several threads, as CLOCK_MONOTONIC is): on a board CLOCK_MONOTONIC,
// in tests a clock whose time moves when every thread sleeps (tests/support/lockstep_clock.hpp),
// so a window of seconds runs in milliseconds and counts the same inferences every time.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <jetperf/measure/contention.hpp>
#include <jetperf/measure/measurement_loop.hpp>
#include <jetperf/measure/point_context.hpp>

namespace jetperf::measure {

/// Timings kept per stage for the median and p99 (the count and means cover every inference).
constexpr std::size_t k_kept_stage_timings = 100000;

/// One stage's part of one inference, in seconds.
struct stage_timing {
  double inference_s = 0;
  double transfer_s = -1;  ///< -1: nothing crossed into the stage (a first stage on the CPU)
};

/// What the protocol runs on each thread: one inference at a time through a fixed list of stages
/// (multi_dnn's network_pipeline, prepared).
class concurrent_pipeline {
 public:
  virtual ~concurrent_pipeline() = default;
  /// Names it in an error ("resnet18: device lost").
  virtual const std::string& name() const = 0;
  virtual std::size_t stage_count() const = 0;
  /// CPU threads of its stages; called on the thread that runs it, before the first inference.
  virtual void set_threads(int threads) = 0;
  /// Runs one inference through every stage; `out` gets one timing per stage. Throws on failure.
  virtual void run_once(std::vector<stage_timing>& out) = 0;

 protected:
  concurrent_pipeline() = default;
  concurrent_pipeline(const concurrent_pipeline&) = default;
  concurrent_pipeline(concurrent_pipeline&&) = default;
  concurrent_pipeline& operator=(const concurrent_pipeline&) = default;
  concurrent_pipeline& operator=(concurrent_pipeline&&) = default;
};

struct concurrent_plan {
  std::size_t warmup_runs = 3;    ///< inferences of each pipeline before the window opens
  double warmup_timeout_s = 120;  ///< a pipeline that has not warmed up by then fails the window
  std::optional<double> fixed_s;  ///< the fixed protocol's window; absent: adaptive
  double min_time_s = 1, max_time_s = 30;
  double target_rse = 0.01;       ///< every pipeline's throughput and the mean power
  double boundary_s = 0.05;       ///< cut from both ends of the power window
  std::size_t min_inferences = 20;  ///< of each pipeline, before its throughput RSE means anything
  int threads = 1;                ///< CPU threads of each pipeline
  bool pin = false;               ///< pipeline i's threads on cores i*threads.. (mod the core count)
  double check_period_s = 0.02;
  contention_policy contention;   ///< measured with the context's cpu_usage (none: not measured)
};

/// One stage of one pipeline over the window.
struct stage_window {
  std::size_t count = 0;
  double inference_sum_s = 0;
  std::size_t transfers = 0;
  double transfer_sum_s = 0;
  std::vector<float> inference_s;  ///< the first k_kept_stage_timings
  double mean_inference_s() const { return count ? inference_sum_s / static_cast<double>(count) : 0.0; }
  std::optional<double> mean_transfer_s() const {
    return transfers ? std::optional<double>(transfer_sum_s / static_cast<double>(transfers)) : std::nullopt;
  }
};

/// One pipeline over the window.
struct pipeline_window {
  std::size_t inferences = 0;  ///< whole inferences completed in the window
  std::size_t warmup = 0;      ///< inferences before it
  std::vector<double> cycle_s; ///< in-window inference times, whole pipeline (the first k_kept_stage_timings)
  std::vector<stage_window> stages;
  double throughput_rse = 0;   ///< batch-means RSE of the mean inference time (that of the throughput)
};

struct concurrent_result {
  std::int64_t t_warmup_ns = 0;  ///< when the pipelines' threads started (the warm-up's start)
  /// The window: its edges, stop decision, trimmed power and its samples, cancelled. It keeps no
  /// per-iteration times: those are the pipelines' (below).
  loop_result window;
  std::vector<pipeline_window> pipelines;  ///< in the order given
  std::string error;  ///< a pipeline's failure, or the warm-up's timeout ("" when none)
  double seconds() const { return static_cast<double>(window.t_end_ns - window.t_start_ns) * 1e-9; }
};

/// The protocol over `pipelines` (prepared), under `plan`, on the context's clock, telemetry (the
/// power criterion and the window's power; none without) and cancel flag. One object, one run:
/// operator() starts a thread per pipeline, waits out their warm-up, runs the window to its stop
/// rule, stops and joins the threads, and summarises.
class concurrent_protocol {
 public:
  concurrent_protocol(const point_context& ctx, const std::vector<concurrent_pipeline*>& pipelines,
                      const concurrent_plan& plan);
  ~concurrent_protocol();
  concurrent_protocol(const concurrent_protocol&) = delete;
  concurrent_protocol& operator=(const concurrent_protocol&) = delete;
  concurrent_result operator()();

 private:
  /// What a pipeline's thread shares with the one that runs the window.
  struct slot;

  void start_threads();
  void run_pipeline(std::size_t index);
  bool warm_up();
  bool all_warm();
  void run_windows();
  void run_window();
  void reset_window();
  std::optional<stop_decision> decision(std::int64_t now, double elapsed_s);
  std::optional<stop_decision> adaptive_decision(std::int64_t now, double elapsed_s);
  std::vector<std::string> throughput_unmet();
  std::int64_t set_edge(std::int64_t slot::*edge);
  bool failed();
  bool cancelled() const { return ctx_.cancelled(); }
  void join_threads();
  void summarise();
  std::optional<power_summary> read_power(std::int64_t from_ns, std::int64_t to_ns, loop_result* r) const;

  const point_context& ctx_;
  std::vector<concurrent_pipeline*> pipelines_;
  concurrent_plan plan_;
  clock& clock_;
  std::vector<std::unique_ptr<slot>> slots_;
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
  std::int64_t last_power_check_ns_ = 0;
  concurrent_result out_;
};

}  // namespace jetperf::measure
