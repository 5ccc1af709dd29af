#pragma once
// The sensor card's GPU load (measure/square_wave_load.hpp): every SM kept busy with arithmetic
// for a given time, so the GPU rail steps at edges the card knows. Plain C++14 with no device
// code, so host .cpp files include it too.
#include <cstdint>

#include <cuda_runtime_api.h>

namespace jetperf {
namespace kernels {

/// Threads per block of the busy kernel.
constexpr unsigned int k_busy_threads = 256;

/// `blocks` blocks of k_busy_threads threads, each doing fused multiply-adds until `duration_ns`
/// of the GPU's global timer have passed since it started. `sink` (one device float) is written
/// only on a value the arithmetic never reaches: it keeps the compiler from dropping the loop.
cudaError_t launch_busy_kernel(std::int64_t duration_ns, unsigned int blocks, float* sink, cudaStream_t stream);

}  // namespace kernels
}  // namespace jetperf
