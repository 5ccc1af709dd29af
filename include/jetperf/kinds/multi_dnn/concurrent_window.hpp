#pragma once
// The measurement of one multi-DNN mapping: every network runs its pipeline on a thread of its
// own, over and over, so its stages share the devices as they would on the board. After each
// network's warm-up inferences a common window opens; it closes after a fixed time (the seed's
// protocol) or once every network's throughput and the board's mean power have converged (the
// adaptive rule), or at max_time. An inference belongs to the window when it completed inside
// it; the window's edges are taken under every network's lock, so none is counted on the wrong
// side of an edge.
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/kinds/multi_dnn/network_pipeline.hpp>
#include <jetperf/measure/power_window.hpp>
#include <jetperf/measure/stop_rule.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::kinds {

/// Timings kept per stage for the median and p99 (the count and means cover every inference).
constexpr std::size_t k_kept_stage_timings = 100000;

struct window_plan {
  std::size_t warmup_runs = 3;    ///< inferences of each network before the window opens
  double warmup_timeout_s = 120;  ///< a network that has not warmed up by then fails the mapping
  std::optional<double> fixed_s;  ///< the fixed protocol's window; absent: adaptive
  double min_time_s = 1, max_time_s = 30;
  double target_rse = 0.01;       ///< every network's throughput and the mean power
  double boundary_s = 0.05;       ///< cut from both ends of the power window
  std::size_t min_inferences = 20;  ///< of each network, before its throughput RSE means anything
  int threads = 1;                ///< CPU threads of each network
  bool pin = false;               ///< network i's threads on cores i*threads.. (mod the core count)
  double check_period_s = 0.02;
  const std::atomic<bool>* cancel = nullptr;
  const telemetry::sample_source* source = nullptr;  ///< null: no power criterion
};

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

struct network_window {
  std::size_t inferences = 0;  ///< whole inferences completed in the window
  std::size_t warmup = 0;      ///< inferences before it
  std::vector<double> cycle_s; ///< in-window inference times, whole pipeline (the first k_kept_stage_timings)
  std::vector<stage_window> stages;
  double throughput_rse = 0;   ///< batch-means RSE of the mean inference time (that of the throughput)
};

struct window_result {
  std::int64_t t_start_ns = 0, t_end_ns = 0;
  std::vector<network_window> networks;
  std::optional<measure::power_summary> power;
  std::vector<telemetry::sample> samples;  ///< the trimmed power window's samples
  double power_window_s = 0, power_covered_s = 0;
  measure::stop_decision decision;
  bool cancelled = false;
  std::string error;  ///< a network's failure ("" when none)
  double seconds() const { return static_cast<double>(t_end_ns - t_start_ns) * 1e-9; }
};

/// Runs `pipelines` (prepared) concurrently under `plan`.
window_result run_concurrent_window(std::vector<network_pipeline>& pipelines, const window_plan& plan);

}  // namespace jetperf::kinds
