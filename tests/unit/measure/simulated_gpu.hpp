#pragma once
// A discrete GPU running a network end to end, with known truth, polled through the real NVML
// reader (telemetry::nvml_sensor) over the fake libnvidia-ml (tests/fake_nvml), for the GPU
// in-context estimator's tests (gpu_layer_energy_test.cpp).
//
// Each op draws a constant power while its kernels run and in the launch gaps after them (a GPU's
// power does not fall within microseconds); between runs the GPU draws `between_w`, which the
// estimator does not know. Each op's kernels (1-3, a few microseconds apart) are what CUPTI would
// record, moved onto the host clock with a constant error of up to `clock_error_ns`. NVML's power
// reading updates on its own clock (`period_s`, drifting by `drift` against the host's, random
// phase), each the mean over the `window_s` before its update plus Gaussian noise, in whole mW;
// its energy counter updates every `counter_period_s` on a clock of its own, in whole mJ, the
// exact integral. The sampler polls every `poll_s` (jittered), and sees a value `latency_s`
// after its update.
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/stats/gpu_layer_energy.hpp>

namespace jetperf::measure::testing {

struct simulated_op {
  int layer = 0;
  double duration_s = 0;  ///< mean, all its kernels and gaps
  double power_w = 0;
  int kernels = 1;
};

struct simulated_gpu_config {
  std::vector<simulated_op> ops;
  std::size_t layers = 0;
  double idle_w = 40, between_w = 46;
  double period_s = 0.02, window_s = 0.02, drift = 2e-4, noise_w = 0.5;
  double counter_period_s = 0.01;
  double poll_s = 0.001, latency_s = 0;
  double duration_jitter = 0.02;  ///< each op's time in a run: mean x (1 +- this, uniform)
  double pause_periods = 1.5;     ///< pause between runs: this many periods plus up to one at random
  double clock_error_ns = 2000;
  double length_s = 15;           ///< of runs
};

struct simulated_gpu_result {
  std::vector<std::vector<stats::op_kernels>> runs;
  stats::nvml_polls polls;
  std::vector<double> true_layer_w;  ///< each layer's power, weighted by its ops' times in these runs
  double true_energy_j = 0;          ///< over the whole simulation
  std::vector<std::int64_t> power_updates;  ///< when each power reading's window ended
};

/// Simulates `c` with `seed`, polling NVML through the fake library at `fake_nvml_path`.
simulated_gpu_result simulate_gpu(const simulated_gpu_config& c, std::uint64_t seed, const std::string& fake_nvml_path);

}  // namespace jetperf::measure::testing
