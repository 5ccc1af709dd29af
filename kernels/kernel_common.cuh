#pragma once
// Device helpers shared by the layer kernels (.cu only): float <-> element conversions and the
// grid of a grid-stride loop.
#include <cstdint>

#include <cuda_fp16.h>

namespace jetperf {
namespace kernels {
namespace detail {

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) { return v; }
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }

constexpr int k_threads = 256;

/// Blocks for n elements; the kernels loop with a grid stride, so the grid is capped.
inline unsigned int blocks_for(std::int64_t n) {
  const std::int64_t b = (n + k_threads - 1) / k_threads;
  return static_cast<unsigned int>(b < 65535 ? b : 65535);
}

}  // namespace detail
}  // namespace kernels
}  // namespace jetperf
