#pragma once
// The GPU kernels a backend's runs launched, as the timeline keeps them: name, start and end on
// CLOCK_MONOTONIC, grid, block, stream, and the host time of the launch call that CUPTI
// correlates with each. The CUDA half records them through CUPTI's activity API
// (src/workloads/cuda/cupti_kernel_tracer.cpp); the host side (measure/kernel_runs.hpp) turns
// them into timeline spans of the runs that launched them. No CUDA types here: this crosses the
// plugin's table (cuda_plugin_abi.hpp).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace jetperf::workloads {

struct gpu_kernel {
  std::string name;
  std::int64_t start_ns = 0;      ///< CLOCK_MONOTONIC
  std::int64_t end_ns = 0;
  std::int64_t launch_ns = -1;    ///< the launching API call's start (CLOCK_MONOTONIC); -1 unknown
  std::uint32_t correlation = 0;  ///< CUPTI's correlation id of the launch
  std::uint32_t stream = 0;
  std::uint32_t device = 0;
  std::array<std::int32_t, 3> grid{};
  std::array<std::int32_t, 3> block{};
};

struct kernel_trace {
  std::vector<gpu_kernel> kernels;  ///< in start order
  std::size_t dropped = 0;          ///< kernels past the tracer's bound, or lost by CUPTI
  /// How far the CUPTI clock's conversion to CLOCK_MONOTONIC may be off (half the narrowest
  /// bracket of the two clocks' reads).
  std::int64_t clock_uncertainty_ns = 0;
};

/// Records the kernels launched between start() and stop(). One per process (CUPTI's activity
/// callbacks are process-wide); not for concurrent use.
class kernel_tracer {
 public:
  virtual ~kernel_tracer() = default;
  /// Begins recording (drops anything recorded before). Throws when CUPTI refuses.
  virtual void start() = 0;
  /// Flushes, ends recording and returns what ran (at most `max_kernels`, the rest counted).
  virtual kernel_trace stop(std::size_t max_kernels) = 0;
};

/// The distinct names of `trace`'s kernels in launch order; {"unknown"} when there are none.
std::vector<std::string> distinct_kernel_names(const kernel_trace& trace);

/// One read of another clock between two reads of CLOCK_MONOTONIC.
struct clock_bracket {
  std::int64_t before_ns = 0;  ///< CLOCK_MONOTONIC
  std::int64_t other_ns = 0;   ///< the other clock (CUPTI's: CLOCK_REALTIME on Linux)
  std::int64_t after_ns = 0;   ///< CLOCK_MONOTONIC
};

struct clock_offset {
  std::int64_t offset_ns = 0;       ///< add to the other clock's times for CLOCK_MONOTONIC
  std::int64_t uncertainty_ns = 0;  ///< half the narrowest bracket
};

/// The offset from the narrowest bracket (the one a preemption did not widen). Throws
/// std::invalid_argument on none.
clock_offset offset_from_brackets(const std::vector<clock_bracket>& brackets);

/// A CUPTI kernel record (CUpti_ActivityKernelN: its fields keep their names across versions)
/// as a gpu_kernel, its times moved by `offset_ns` onto CLOCK_MONOTONIC.
template <class Record>
gpu_kernel kernel_from_record(const Record& r, std::int64_t offset_ns) {
  gpu_kernel k;
  k.name = r.name ? r.name : "unknown";
  k.start_ns = static_cast<std::int64_t>(r.start) + offset_ns;
  k.end_ns = static_cast<std::int64_t>(r.end) + offset_ns;
  k.correlation = r.correlationId;
  k.stream = r.streamId;
  k.device = r.deviceId;
  k.grid = {static_cast<std::int32_t>(r.gridX), static_cast<std::int32_t>(r.gridY), static_cast<std::int32_t>(r.gridZ)};
  k.block = {static_cast<std::int32_t>(r.blockX), static_cast<std::int32_t>(r.blockY),
             static_cast<std::int32_t>(r.blockZ)};
  return k;
}

}  // namespace jetperf::workloads
