#pragma once
// Per-layer power and energy of a network running end to end on a discrete GPU, from its kernels'
// times and NVML (docs/protocols/in_context.md, "On a GPU"). The same estimator as on a Jetson
// (layer_power_estimate.hpp), fed from two other sources:
// - the op timeline: CUPTI's kernel activity records give each op's kernels their GPU-side start
//   and end, moved onto CLOCK_MONOTONIC by the tracer's clock offset (backend/kernel_trace.hpp);
//   an op spans its first kernel's start to its last one's end, and, as on a Jetson, owns the time
//   up to the next op's start (the launch gaps between kernels, a few microseconds);
// - NVML's averaged power (nvmlDeviceGetPowerUsage, polled), whose update clock is fitted from its
//   changes as the INA3221's is (sensor_updates.hpp), each reading then the mean over the
//   averaging window that ends at its update;
// - NVML's energy counter (nvmlDeviceGetTotalEnergyConsumption, mJ since the driver loaded),
//   whose differences are exact integrals of the power between its updates: the counter's energy
//   over the runs is an equality constraint the estimate is held to
//   (layer_power_estimator::set_exact_energy), so the layers' energy, with the time between runs,
//   adds up to the counter's.
// Host-only: no CUDA or NVML type here; the protocol (protocols/in_context.hpp) and the tests give
// the timeline and the polls.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <jetperf/stats/layer_power_estimate.hpp>
#include <jetperf/stats/sensor_updates.hpp>
#include <jetperf/stats/window_offset.hpp>

namespace jetperf::stats {

/// One op's kernels in one run: [start, end] on CLOCK_MONOTONIC, in start order.
struct op_kernels {
  int op = -1;  ///< the estimator's part (an op; or a layer when layers are the parts)
  std::vector<std::pair<std::int64_t, std::int64_t>> kernels;
};

/// A run's ops as the estimator's parts: each op from its first kernel's start to its last
/// one's end, in time order; ops without a kernel are left out.
std::vector<layer_span> spans_of_kernels(const std::vector<op_kernels>& run);

/// NVML's polled values of one GPU, on CLOCK_MONOTONIC, in time order.
struct nvml_polls {
  std::vector<std::pair<std::int64_t, double>> power_w;   ///< nvml.gpuN.power
  std::vector<std::pair<std::int64_t, double>> energy_j;  ///< nvml.gpuN.energy (empty: no counter)
};

struct gpu_energy_options {
  std::size_t layer_count = 0;
  std::vector<int> layer_of_part;      ///< the layer of each part (empty: the parts are the layers)
  double idle_w = 0;                   ///< the GPU's idle power under the point's settings
  double nominal_period_s = 0;         ///< the power reading's update interval (0: from its changes)
  /// The power reading's averaging window (0: its fitted update period, as an INA3221's).
  /// NVML's differs by GPU: some average over their whole update period, others over a part of it.
  double averaging_window_s = 0;
  double target_rel = 0.05;
  double min_part_s = 0;               ///< layer_estimate_options::min_part_ns, in seconds
  bool between_runs_column = true;     ///< the runs paused between them (layer_estimate_options)
};

/// The counter's energy over the runs against the layers'.
struct gpu_counter_check {
  bool available = false;     ///< the counter had two updates inside the runs
  bool clock_fitted = false;  ///< its updates were placed on a fitted clock (else at its polls)
  std::int64_t from_ns = 0, to_ns = 0;
  double counter_j = 0;       ///< the counter's difference over (from_ns, to_ns]
  /// Each layer's power times its time inside the interval, added up (their energy there), and
  /// the time between runs at its estimated power (or idle, without a column for it).
  double layers_j = 0, between_runs_j = 0;
  /// (layers_j + between_runs_j - counter_j) / counter_j.
  double sum_rel_error = 0;
  /// The estimate before it was held to the counter, minus the counter (J): how far the averaged
  /// readings alone were off.
  double unconstrained_gap_j = 0;
};

/// The energy counter's difference between its first and last update inside an interval.
struct counter_energy {
  bool clock_fitted = false;  ///< its updates placed on a fitted clock (else between the polls that saw them)
  std::int64_t from_ns = 0, to_ns = 0;
  double joules = 0;
};

/// From the counter's polls (t_ns, J), in time order; nullopt with fewer than two updates
/// inside [from_ns, to_ns].
std::optional<counter_energy> counter_energy_within(const std::vector<std::pair<std::int64_t, double>>& polls,
                                                    std::int64_t from_ns, std::int64_t to_ns);

struct gpu_layer_energy {
  layer_power_result estimate;  ///< units, powers and energies per run, with 95% intervals
  sensor_update_fit power_fit;  ///< the power reading's update clock
  gpu_counter_check counter;
  std::string unresolvable;     ///< why no figure (empty: estimate holds them)
};

/// The estimate from the runs (each a run's ops, from its kernels) and the NVML polls over them.
/// With the counter (two updates inside the runs), the estimate is held to its energy.
gpu_layer_energy estimate_gpu_layer_energy(const std::vector<std::vector<op_kernels>>& runs, const nvml_polls& polls,
                                           const gpu_energy_options& options);

}  // namespace jetperf::stats
