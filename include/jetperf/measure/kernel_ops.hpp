#pragma once
// Which op of a run launched each GPU kernel, for the GPU in-context estimator
// (stats/gpu_layer_energy.hpp): a backend that notes, on the host, when it began and ended
// launching each op (its launch calls return before the GPU runs them) gets each kernel's op
// from CUPTI's correlation of the kernel with the host time of its launch call.
#include <cstdint>
#include <vector>

#include <jetperf/backend/kernel_trace.hpp>
#include <jetperf/backend/layer_backend.hpp>
#include <jetperf/stats/gpu_layer_energy.hpp>

namespace jetperf::measure {

using workloads::op_launch;

/// Each op's kernels (those whose launch call falls in its launch window), in the order of
/// `launches`; a kernel with an unknown launch time, or launched outside every window, is in
/// none, and is counted in `unattributed`.
std::vector<stats::op_kernels> kernels_by_op(const std::vector<op_launch>& launches,
                                      const std::vector<workloads::gpu_kernel>& kernels, std::size_t* unattributed = nullptr);

}  // namespace jetperf::measure
