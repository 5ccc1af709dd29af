#pragma once
// A GPU point's kernels on the job's timeline. CUPTI adds time to every launch, so the timed
// runs of the window go untraced; after it, a few more runs go under the backend's kernel tracer
// (jetperf/backend/kernel_trace.hpp). Each of those runs is a span on the track "runs" (args
// "kernel_trace": true), and each of its kernels one on the track "kernels", with the run that
// launched it (by the launch call's host time, CUPTI's correlation of launch and kernel), its
// grid, block, stream and correlation id.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/backend/kernel_trace.hpp>
#include <jetperf/measure/point_context.hpp>
#include <jetperf/measure/measurement_loop.hpp>

namespace jetperf::measure {

/// Runs traced after each GPU point's window, and the kernels kept of them.
inline constexpr std::size_t k_kernel_traced_runs = 3;
inline constexpr std::size_t k_max_traced_kernels = 4096;

struct run_span {
  std::int64_t start_ns = 0;  ///< CLOCK_MONOTONIC
  std::int64_t end_ns = 0;
};

/// For each kernel, the index of the run whose span holds its launch call (or, where the launch
/// is unknown, its start); -1 where no run does.
std::vector<int> kernel_runs(const std::vector<run_span>& runs, const std::vector<workloads::gpu_kernel>& kernels);

struct traced_runs {
  std::size_t runs = 0;
  std::size_t kernels = 0;       ///< recorded on the timeline
  std::size_t dropped = 0;       ///< past max_kernels, or lost by the tracer
  std::size_t unattributed = 0;  ///< recorded, but launched outside every traced run
  std::string error;             ///< why nothing was traced (the tracer refused); empty when it ran
};

/// Runs `run_once` `runs` times under `tracer` and records the runs and their kernels (at most
/// `max_kernels`) on ctx's timeline. A tracer that throws records the reason as an instant on
/// "kernels" and the runs untraced: a point is not failed for want of a trace.
traced_runs record_kernel_runs(const point_context& ctx, workloads::kernel_tracer& tracer,
                               const timed_iteration& run_once, std::size_t runs = k_kernel_traced_runs,
                               std::size_t max_kernels = k_max_traced_kernels);

}  // namespace jetperf::measure
